#include "workloads/chess.h"

#include <sstream>

namespace nnuelab::workloads {
namespace {

[[noreturn]] void fail(const std::string& fen, const std::string& what) {
  throw FenError("bad FEN \"" + fen + "\": " + what);
}

int piece_type(char c) {
  switch (c | 0x20) {  // lower case
    case 'p': return 1;
    case 'n': return 2;
    case 'b': return 3;
    case 'r': return 4;
    case 'q': return 5;
    case 'k': return 6;
  }
  return 0;
}

bool whole_number(const std::string& s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

// The fields after the side to move: optional, unused by the evaluation, but a FEN that
// gives them gives them in their form, so a typo there is refused like one in the board.
// Castling: "-", or up to two rights per side, each once: K/Q (king/queen side) or a
// rook's file A-H (Shredder-FEN, as Chess960 positions write it), lower case for black.
// En passant: "-", or the square behind a pawn that just moved two: rank 6 when white is
// to move, rank 3 when black is. Then either the two move counters (half-move clock >= 0,
// move number >= 1) or, in an EPD line, its operations ("bm e4; id ...;"), which start
// with a letter and are not read; operations may also follow the counters. Anything else
// (a signed or non-numeric counter, a third number) is refused: it is a typo, not a field.
bool starts_with_letter(const std::string& s) {
  const char lower = char(s[0] | 0x20);
  return lower >= 'a' && lower <= 'z';
}

void check_move_fields(const std::string& fen, std::istringstream& in, Color side) {
  std::string castling, ep, halfmove, fullmove;
  if (!(in >> castling)) return;
  if (castling != "-") {
    int per_side[2] = {0, 0};
    for (std::size_t i = 0; i < castling.size(); ++i) {
      const char c = castling[i];
      const char lower = char(c | 0x20);
      if (!(lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'h')))
        fail(fen, "castling field \"" + castling + "\" has '" + std::string(1, c) +
                      "' (rights are -, or K, Q, k, q or a rook's file A-H / a-h)");
      if (castling.find(c) != i) fail(fen, "castling field \"" + castling + "\" gives '" + std::string(1, c) + "' twice");
      if (++per_side[c >= 'a'] > 2)
        fail(fen, "castling field \"" + castling + "\" gives " + (c >= 'a' ? "black" : "white") + " more than two rights");
    }
  }
  if (!(in >> ep)) return;
  const char ep_rank = side == kWhite ? '6' : '3';
  if (ep != "-" && !(ep.size() == 2 && ep[0] >= 'a' && ep[0] <= 'h' && ep[1] == ep_rank))
    fail(fen, "en passant field \"" + ep + "\" is not - or a square on rank " + ep_rank + " (" +
                  (side == kWhite ? "white" : "black") + " to move)");
  if (!(in >> halfmove) || starts_with_letter(halfmove)) return;  // none, or EPD operations
  if (!whole_number(halfmove)) fail(fen, "half-move clock \"" + halfmove + "\" is not a whole number >= 0");
  if (!(in >> fullmove)) return;
  if (!whole_number(fullmove) || fullmove.find_first_not_of('0') == std::string::npos)
    fail(fen, "move number \"" + fullmove + "\" is not a whole number >= 1");
  std::string rest;
  if (in >> rest && !starts_with_letter(rest))
    fail(fen, "\"" + rest + "\" after the move number is neither the end nor an EPD operation");
}

}  // namespace

Position parse_fen(const std::string& fen) {
  std::istringstream in(fen);
  std::string board, side;
  if (!(in >> board)) fail(fen, "empty");
  if (!(in >> side)) fail(fen, "no side-to-move field after the board");
  Position pos;
  int rank = 7, file = 0;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      if (file != 8) fail(fen, "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8");
      if (--rank < 0) fail(fen, "more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) fail(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
    } else if (const int t = piece_type(c)) {
      if (file > 7) fail(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      const Color color = (c >= 'a') ? kBlack : kWhite;
      if (t == 1 && (rank == 0 || rank == 7)) fail(fen, "a pawn on rank " + std::to_string(rank + 1));
      const int sq = rank * 8 + file;
      pos.board[sq] = {color, t};
      if (t == 6) {
        if (pos.king[color] >= 0) fail(fen, std::string("two ") + (color == kWhite ? "white" : "black") + " kings");
        pos.king[color] = sq;
      }
      if (++pos.pieces > 32) fail(fen, "more than 32 pieces");
      ++file;
    } else {
      fail(fen, std::string("unexpected character '") + c + "' in the board field");
    }
  }
  if (rank != 0 || file != 8) fail(fen, "the board field does not describe 8 ranks of 8 squares");
  if (pos.king[kWhite] < 0 || pos.king[kBlack] < 0) fail(fen, "each side needs exactly one king");
  if (side == "w") pos.side_to_move = kWhite;
  else if (side == "b") pos.side_to_move = kBlack;
  else fail(fen, "side to move is \"" + side + "\", not w or b");
  check_move_fields(fen, in, pos.side_to_move);
  return pos;
}

void check_position(const Position& pos) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("invalid Position: " + what); };
  if (pos.side_to_move != kWhite && pos.side_to_move != kBlack) bad("side_to_move is neither white nor black");
  int pieces = 0, kings[2] = {0, 0};
  for (int s = 0; s < 64; ++s) {
    const Piece pc = pos.board[s];
    if (pc.type < 0 || pc.type > 6) bad("square " + std::to_string(s) + " holds piece type " + std::to_string(pc.type) + " (0..6)");
    if (pc.type && pc.color != kWhite && pc.color != kBlack) bad("square " + std::to_string(s) + " holds a piece of no colour");
    if (!pc.type) continue;
    ++pieces;
    if (pc.type == 6) ++kings[pc.color];
  }
  if (pieces != pos.pieces) bad("pieces = " + std::to_string(pos.pieces) + " but the board holds " + std::to_string(pieces));
  if (pieces > 32) bad(std::to_string(pieces) + " pieces (at most 32)");
  for (Color c : {kWhite, kBlack}) {
    const int k = pos.king[c];
    if (kings[c] != 1 || k < 0 || k > 63 || pos.board[k].type != 6 || pos.board[k].color != c)
      bad(std::string(c == kWhite ? "white" : "black") + " needs exactly one king, at king[" + std::to_string(c) + "] = " + std::to_string(k));
  }
}

int halfka_v2_hm_features(const Position& pos, Color p, std::uint32_t* out) {
  check_position(pos);
  if (p != kWhite && p != kBlack) throw std::invalid_argument("halfka_v2_hm_features: perspective is neither white nor black");
  if (!out) throw std::invalid_argument("halfka_v2_hm_features: out is null");
  const int k = pos.king[p];
  const int kfile = k % 8, krank = k / 8;
  const int orient = (kfile < 4 ? 7 : 0) ^ (p == kBlack ? 56 : 0);
  const int mirrored_file = kfile < 4 ? kfile : 7 - kfile;                // 0..3, 3 nearest the centre
  const int rank_from_far = p == kWhite ? 7 - krank : krank;             // the table's row order
  const int bucket = 4 * rank_from_far + mirrored_file;
  int n = 0;
  for (int s = 0; s < 64; ++s) {
    const Piece pc = pos.board[s];
    if (!pc.type) continue;
    const int plane = pc.type == 6 ? 10 : 2 * (pc.type - 1) + (pc.color != p);
    out[n++] = std::uint32_t((s ^ orient) + 64 * plane + 704 * bucket);
  }
  return n;
}

}  // namespace nnuelab::workloads
