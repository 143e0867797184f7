// Chess positions from FEN, and their HalfKAv2_hm feature indices (Stockfish's input
// features for the nets in ../shared/data).
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace nnuelab::workloads {

enum Color : int { kWhite = 0, kBlack = 1 };
// Piece types 1..6 = pawn, knight, bishop, rook, queen, king.
struct Piece {
  Color color = kWhite;
  int type = 0;  // 0: empty
};

// A FEN that cannot be parsed: what() says which field and why.
struct FenError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct Position {
  std::array<Piece, 64> board{};  // a1 = 0, b1 = 1, ..., h8 = 63
  Color side_to_move = kWhite;
  int pieces = 0;                  // kings included
  std::array<int, 2> king{-1, -1};  // king squares
};

// Board and side to move are required; castling, en passant and the move counters (or an
// EPD line's operations after en passant) are optional, checked in their form when given,
// and not used by the evaluation. Exactly one king per side, no pawn on the first or last
// rank, at most 32 pieces. Throws FenError ("bad FEN ...: what") otherwise.
Position parse_fen(const std::string& fen);

// HalfKAv2_hm: for perspective p with its king on k, each piece on s (both kings
// included) is feature
//   (s ^ orient(p, k)) + 64 * plane(piece, p) + 704 * bucket(p, k)
// orient mirrors files so p's king stands on files e-h (s ^ 7 when it is on a-d) and, for
// black, flips ranks (s ^ 56); plane: p's pawn 0, the other side's pawn 1, p's knight 2,
// ... the other side's queen 9, either king 10 (the shared king plane); bucket: 32
// buckets, 4 mirrored files x 8 ranks, rank counted from the far side for white
// (bucket = 4 * (7 - rank) + min(file, 7 - file); for black 4 * rank + ...). Writes the
// features of all pieces (at most 32) and returns how many.
constexpr int kMaxActiveFeatures = 32;
// Throws std::invalid_argument (naming the field) unless `pos` is what parse_fen could
// return: a hand-built Position (kings at -1, more than 32 pieces, a piece type 7) would
// otherwise index the feature tables out of range. halfka_v2_hm_features and both
// evaluations call it.
void check_position(const Position& pos);
int halfka_v2_hm_features(const Position& pos, Color perspective, std::uint32_t* out);

// (pieces - 1) / 4: the PSQT column and the layer stack the nets use.
inline int layer_bucket(const Position& pos) { return (pos.pieces - 1) / 4; }

}  // namespace nnuelab::workloads
