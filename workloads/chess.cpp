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
  return pos;
}

int halfka_v2_hm_features(const Position& pos, Color p, std::uint32_t* out) {
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
