#include "workloads/eval.h"

#include "reference/affine.h"
#include "reference/crelu32.h"
#include "reference/ft.h"
#include "reference/pool.h"
#include "reference/sqr_crelu32.h"

namespace nnuelab::workloads {

Evaluation evaluate_reference(const Network& net, const Position& pos) {
  check_network(net);
  check_position(pos);
  Evaluation e;
  const int l1 = net.l1;
  e.bucket = layer_bucket(pos);
  e.ft_out.assign(l1, 0);
  const Color order[2] = {pos.side_to_move, Color(1 - pos.side_to_move)};
  std::int32_t psqt[2] = {0, 0};
  std::vector<std::int16_t> acc(l1);
  for (int half = 0; half < 2; ++half) {
    std::uint32_t active[kMaxActiveFeatures];
    const int n = halfka_v2_hm_features(pos, order[half], active);
    ref::ft_refresh(net.ft_bias.data(), net.ft_weights.data(), l1, kHalfKAv2Features, active, n, acc.data());
    for (int i = 0; i < n; ++i) psqt[half] += net.psqt_weights[std::size_t(active[i]) * kPsqtBuckets + e.bucket];
    ref::ft_output_clamp127(acc.data(), l1, e.ft_out.data() + half * (l1 / 2));
  }
  e.psqt = (psqt[0] - psqt[1]) / 2;

  const LayerStack& st = net.stacks[e.bucket];
  ref::affine(st.w0.data(), st.b0.data(), l1, kFc0Out, e.ft_out.data(), e.fc0.data());
  ref::sqr_crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data());
  ref::crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data() + (kFc0Out - 1));
  ref::affine(st.w1.data(), st.b1.data(), kFc1In, kFc1Out, e.ac0.data(), e.fc1.data());
  ref::crelu32(e.fc1.data(), kFc1Out, 6, e.ac1.data());
  ref::affine(st.w2.data(), st.b2.data(), kFc1Out, 1, e.ac1.data(), &e.fc2);
  const std::int32_t passed = e.fc0[kFc0Out - 1] * (600 * 16) / (127 * (1 << 6));
  e.positional = e.fc2 + passed;
  e.value = (e.psqt + e.positional) / 16;
  return e;
}

}  // namespace nnuelab::workloads
