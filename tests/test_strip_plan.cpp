// The striped pass's plan (strip_plan.hpp), in plain C++: which kernel and
// grid each shape gets on an H100-sized device, what the tuning forces, and
// the memory limits. No GPU needed.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/build.hpp"
#include "core/error.hpp"
#include "pairwise/batch_gpu.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/strip_plan.hpp"
#include "random_inputs.hpp"

using namespace gdp;
using namespace gdp::pairwise;
using namespace gdp::pairwise::striped;

namespace {

const DeviceLimits h100{.sms = 132, .shared_per_block = 232448};

PassRequest local_dna(long long m, long long n) {
  return {.m = m, .n = n, .max_abs_score = 3, .open_extend = 5, .profile_rows = 4, .local = true, .anywhere = true};
}

}  // namespace

TEST_CASE("the plan picks each shape's kernel as measured", "[plan]") {
  SECTION("a long target: the diagonal 16-bit kernel, 64 columns a lane, one block an SM") {
    const KernelPlan k = plan_kernel(local_dna(100000, 10000000), {}, h100);
    REQUIRE(k.kind == KernelKind::s16_diagonal);
    REQUIRE(k.lane_columns == 64);
    REQUIRE(k.strip_width == 4096);
    REQUIRE(k.shared_bytes == 4u * 4 * 4096 + 4u * 2 * 32 * 64 * 4);  // profiles, and the lanes' best rows
    const GridPlan g = plan_grid(local_dna(100000, 10000000), k, {}, h100, 1, std::size_t{60} << 30);
    REQUIRE(g.blocks_per_sm == 1);
    REQUIRE(g.blocks == 132);
    REQUIRE(g.group == kWarpsPerBlock);
    REQUIRE(g.piece == 10000000);
    REQUIRE(g.fits);
  }
  SECTION("the diagonal kernel's columns a lane grow with the target") {
    for (const auto& [n, columns] : {std::pair{200000LL, 8}, {300000LL, 16}, {599999LL, 16}, {600000LL, 32},
                                     {993479LL, 32}, {1999999LL, 32}, {2000000LL, 64}}) {
      INFO("n " << n);
      const KernelPlan k = plan_kernel(local_dna(200000, n), {}, h100);
      REQUIRE(k.kind == KernelKind::s16_diagonal);
      REQUIRE(k.lane_columns == columns);
    }
  }
  SECTION("a short query: the row kernel, whose wavefront fills at once") {
    REQUIRE(plan_kernel(local_dna(10000, 1000000), {}, h100).kind == KernelKind::s16_rows);
    REQUIRE(plan_kernel(local_dna(1000, 1000000), {}, h100).kind == KernelKind::s16_rows);
  }
  SECTION("global, semi-global, or a last row: the rebased kernel, where it rebases often enough") {
    PassRequest r = local_dna(100000, 1000000);
    r.local = false, r.anywhere = false;
    KernelPlan k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s16_rebased);
    REQUIRE(k.lane_columns == 32);
    REQUIRE(k.rebase.interval == 2048);
    r = local_dna(1000, 1000);
    r.last_h = r.last_f = true;
    k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s16_rebased);
    REQUIRE(k.lane_columns == 8);
    // Gaps of 90 + 10k, scores of +-30: too few rows a base even at 8 columns.
    r = local_dna(100000, 1000000);
    r.local = false, r.anywhere = false, r.max_abs_score = 30, r.open_extend = 100;
    k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s32);
    REQUIRE(k.lane_columns == 16);
    r.n = 999999;
    REQUIRE(plan_kernel(r, {}, h100).lane_columns == 8);
  }
  SECTION("bits=32, or scores beyond 8 bits: 32 bits") {
    PassRequest r = local_dna(100000, 1000000);
    r.local = false, r.anywhere = false;
    REQUIRE(plan_kernel(r, {.bits = 32}, h100).kind == KernelKind::s32);
    r = local_dna(100000, 10000000);
    r.max_abs_score = 300;
    KernelPlan k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s32);
    REQUIRE(k.lane_columns == 8);
    REQUIRE(k.shared_bytes == 4u * 4 * 256 * 2);
  }
  SECTION("a protein query's profile that would not fit takes fewer columns") {
    PassRequest r = local_dna(100000, 10000000);
    r.profile_rows = 20, r.max_abs_score = 11;
    const KernelPlan k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s16_diagonal);
    REQUIRE(k.lane_columns == 32);
    REQUIRE(k.shared_bytes <= h100.shared_per_block);
  }
  SECTION("the rebased kernel, after an overflow, rebases often enough, or gives way") {
    GpuTuning rebased;
    rebased.kernel16 = Kernel16::rebased;
    // Gaps of 3 + 2k, scores +1/-3 (bound 8): a base serves 3,051 rows of
    // 1,025 columns, so a rebase every 2,048 steps.
    const KernelPlan k = plan_kernel(local_dna(1000000, 1000000), rebased, h100);
    REQUIRE(k.kind == KernelKind::s16_rebased);
    REQUIRE(k.lane_columns == 32);
    REQUIRE(rebased16::plan(5, 3, 32 * 32 + 1).rows == 3051);
    REQUIRE(k.rebase.interval == 2048);
    REQUIRE(k.rebase.reach == rebased16::plan(5, 3, 32 * 32 + 1).reach);
    // Scores of +-30, gaps of 30 + 10k (bound 70): 205 rows at 8 columns a
    // lane, none at 16, so a rebase every 64 steps with 8.
    PassRequest r = local_dna(100000, 10000000);
    r.max_abs_score = 30, r.open_extend = 40;
    REQUIRE(rebase16_of(40, 30, 16).interval == 0);
    const KernelPlan narrow = plan_kernel(r, rebased, h100);
    REQUIRE(narrow.kind == KernelKind::s16_rebased);
    REQUIRE(narrow.lane_columns == 8);
    REQUIRE(narrow.rebase.interval == kMinRebaseInterval);
    // Gaps of 90 + 10k leave too few rows even at 8 columns: the plain
    // kernel (here the diagonal one, 64 columns), as without the ask.
    r.open_extend = 100;
    REQUIRE(rebase16_of(100, 30, 8).interval == 0);
    const KernelPlan plain = plan_kernel(r, rebased, h100);
    REQUIRE(plain.kind == KernelKind::s16_diagonal);
    REQUIRE(plain.lane_columns == 64);
    REQUIRE(plain.rebase.interval == 0);
    // A long target's rebased pass: 32 columns where its plain one takes 64,
    // and 64 when asked.
    const PassRequest chromosome = local_dna(10000000, 10000000);
    REQUIRE(plan_kernel(chromosome, {}, h100).lane_columns == 64);
    REQUIRE(plan_kernel(chromosome, rebased, h100).lane_columns == kMaxRebasedCols);
    GpuTuning wide = rebased;
    wide.lane_columns = 64;
    REQUIRE(plan_kernel(chromosome, wide, h100).lane_columns == 64);
  }
  SECTION("the kept pass: the rebased kernel (two kept strips a strip at 8 columns), one piece, strips in groups") {
    PassRequest r = local_dna(3000, 5000);
    r.kept = true;
    const KernelPlan k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s16_rebased);
    REQUIRE(k.lane_columns == kKeptCols);
    REQUIRE(k.strip_width == 2 * kKeptWidth);
    REQUIRE(k.rebase.interval > 0);
    const GridPlan g = plan_grid(r, k, {}, h100, 4, std::size_t{1} << 30);
    REQUIRE(g.group == kWarpsPerBlock);
    REQUIRE(g.piece == 5000);
    REQUIRE(g.strips == (5000 + 2 * kKeptWidth - 1) / (2 * kKeptWidth));
    // A long target's: as its score pass's columns, at most kMaxKeptCols16.
    PassRequest wide = local_dna(3000, 50000000);
    REQUIRE(plan_kernel(wide, {}, h100).lane_columns == 64);
    wide.kept = true;
    const KernelPlan kw = plan_kernel(wide, {}, h100);
    REQUIRE(kw.kind == KernelKind::s16_rebased);
    REQUIRE(kw.lane_columns == kMaxKeptCols16);
    // A global kept pass too, whatever 16-bit kernel was asked, at the columns asked.
    r.local = false, r.anywhere = false, r.last_h = true;
    GpuTuning rows;
    rows.kernel16 = Kernel16::rows, rows.lane_columns = 16;
    const KernelPlan global = plan_kernel(r, rows, h100);
    REQUIRE(global.kind == KernelKind::s16_rebased);
    REQUIRE(global.lane_columns == 16);
  }
  SECTION("a pass that saves rows: the rebased kernel, local or global, at the score pass's columns (at most 32)") {
    PassRequest r = local_dna(3000, 5000000);
    r.save_rows = true;
    const KernelPlan local = plan_kernel(r, {}, h100);
    REQUIRE(local.kind == KernelKind::s16_rebased);
    REQUIRE(plan_kernel(local_dna(3000, 5000000), {}, h100).lane_columns == 64);
    REQUIRE(local.lane_columns == kMaxRebasedCols);
    r.local = false, r.anywhere = false;
    REQUIRE(plan_kernel(r, {}, h100).kind == KernelKind::s16_rebased);
  }
  SECTION("the kept pass in 32 bits where the rebased kernel cannot rebase, or 32 bits are asked") {
    PassRequest r = local_dna(3000, 5000);
    r.kept = true;
    r.open_extend = 100, r.max_abs_score = 30;
    REQUIRE(rebase16_of(100, 30, 8).interval == 0);
    const KernelPlan k = plan_kernel(r, {}, h100);
    REQUIRE(k.kind == KernelKind::s32);
    REQUIRE(k.lane_columns == kKeptCols);
    const GridPlan g = plan_grid(r, k, {}, h100, 4, std::size_t{1} << 30);
    REQUIRE(g.strips == (5000 + kKeptWidth - 1) / kKeptWidth);
    GpuTuning bits32;
    bits32.bits = 32;
    PassRequest asked = local_dna(3000, 5000);
    asked.kept = true;
    REQUIRE(plan_kernel(asked, bits32, h100).kind == KernelKind::s32);
  }
}

TEST_CASE("the tuning forces the plan", "[plan]") {
  const PassRequest r = local_dna(5000, 200000);
  for (const KernelVariant v : {KernelVariant{"s32", KernelKind::s32, 16}, KernelVariant{"d64", KernelKind::s16_diagonal, 64},
                                KernelVariant{"r8", KernelKind::s16_rows, 8}, KernelVariant{"r32", KernelKind::s16_rows, 32},
                                KernelVariant{"b16", KernelKind::s16_rebased, 16}}) {
    const KernelPlan k = plan_kernel(r, tuning_for(v), h100);
    INFO(v.name);
    REQUIRE(k.kind == v.kind);
    REQUIRE(k.lane_columns == v.lane_columns);
  }
  const KernelPlan k = plan_kernel(r, {}, h100);
  GpuTuning t;
  t.blocks_per_sm = 3, t.max_slots = 1, t.group = 1, t.piece_columns = 5000;
  const GridPlan g = plan_grid(r, k, t, h100, 2, std::size_t{1} << 30);
  REQUIRE(g.blocks_per_sm == 2);  // no more than fit
  REQUIRE(g.slots == 2);          // a ring of at least two slots
  REQUIRE(g.group == 1);
  REQUIRE(g.piece == 5000 / k.strip_width * k.strip_width);
}

TEST_CASE("the plan within the device's memory", "[plan]") {
  const PassRequest r = local_dna(1000000, 100000000);
  const KernelPlan k = plan_kernel(r, {}, h100);
  REQUIRE_FALSE(plan_grid(r, k, {}, h100, 1, 8 * 1000000).fits);  // not a quarter of one column
  REQUIRE(plan_grid(r, k, {}, h100, 1, std::size_t{8} << 30).fits);
  // A column of the target takes 2 bytes and the strips' best; half the free memory at most.
  REQUIRE(piece_within(r, k, 100000000, std::size_t{1} << 30) == 100000000);
  const long long narrow = piece_within(r, k, 100000000, 100000000);
  REQUIRE(narrow < 100000000);
  REQUIRE(narrow % k.strip_width == 0);
  REQUIRE(piece_within(r, k, 100000000, 1000) == 0);
}

TEST_CASE("a query too long for ring slots of whole columns: slots of a window of rows, pieces of one wave", "[plan]") {
  const std::size_t free = std::size_t{78} << 30;
  SECTION("1e6 x 1e6 keeps slots of whole columns, one piece") {
    const PassRequest r = local_dna(1000000, 1000000);
    const KernelPlan k = plan_kernel(r, {}, h100);
    const GridPlan g = plan_grid(r, k, {}, h100, 2, free);
    REQUIRE_FALSE(g.windowed);
    REQUIRE(g.ring_rows == 1000000);
    REQUIRE(g.piece == 1000000);
  }
  SECTION("5e7 x 5e7: a window a slot, a slot a group, every group of a piece running at once") {
    const PassRequest r = local_dna(50000000, 50000000);
    const KernelPlan k = plan_kernel(r, {}, h100);
    const GridPlan g = plan_grid(r, k, {}, h100, 2, free);
    REQUIRE(g.windowed);
    REQUIRE(g.ring_rows == kRingRows);
    REQUIRE(g.fits);
    REQUIRE(g.piece == g.blocks * kWarpsPerBlock * k.strip_width);  // one wave
    REQUIRE(g.strips == g.blocks * kWarpsPerBlock);
    REQUIRE(g.slots == g.blocks);  // a slot a group
    REQUIRE(g.slots * g.ring_rows * r.edge_bytes < (std::int64_t{1} << 30));
    // A saved pass's pieces are no longer than that.
    PassRequest saved = r;
    saved.saved = true;
    REQUIRE(plan_grid(saved, k, {}, h100, 2, free).piece == g.piece);
  }
  SECTION("the tuning forces a window on a small pass, in groups or not") {
    const PassRequest r = local_dna(5000, 300000);
    const KernelPlan k = plan_kernel(r, {}, h100);
    for (int group : {0, 1}) {
      GpuTuning t;
      t.ring_rows = 64, t.group = group;
      const GridPlan g = plan_grid(r, k, t, h100, 2, std::size_t{1} << 30);
      REQUIRE(g.windowed);
      REQUIRE(g.ring_rows == 64);
      REQUIRE(g.slots == (g.strips + g.group - 1) / g.group);
      REQUIRE(g.blocks * kWarpsPerBlock >= g.strips);  // every strip's warp at once
      REQUIRE(g.piece <= 2 * 132 * kWarpsPerBlock * k.strip_width);
    }
    // Not where the query fits in the window, nor for a kept pass.
    GpuTuning t;
    t.ring_rows = 8192;
    REQUIRE_FALSE(plan_grid(r, k, t, h100, 2, std::size_t{1} << 30).windowed);
    PassRequest kept = r;
    kept.kept = true;
    t.ring_rows = 64;
    REQUIRE_FALSE(plan_grid(kept, plan_kernel(kept, {}, h100), t, h100, 2, std::size_t{1} << 30).windowed);
  }
}

TEST_CASE("the kernel table and the build agree", "[plan]") {
  std::set<std::string> names;
  for (const KernelVariant& v : kernel_variants()) {
    names.insert(std::string(v.name));
    const std::string bits = v.kind == KernelKind::s32           ? "s32"
                             : v.kind == KernelKind::s16_rows    ? "s16_rows"
                             : v.kind == KernelKind::s16_rebased ? "s16_rebased"
                                                                 : "s16_diag";
    REQUIRE(std::string(v.name) == "sw_striped_" + bits + "_c" + std::to_string(v.lane_columns));
  }
  REQUIRE(names.size() == kernel_variants().size());
  if constexpr (!have_cuda) {
    REQUIRE(kernel_variants().empty());
    const ScoringScheme dna = test::dna_scheme();
    const std::vector<std::uint8_t> q{0, 1, 2}, t{0, 1, 2};
    REQUIRE_THROWS_AS(score_pass_gpu(q, t, dna, Shape{}, 0), RunError);
  }
}

TEST_CASE("the GPU tuning keys of --tune set the tuning and refuse what they do not know", "[plan]") {
  GpuTuning t;
  apply_tune(t, gpu_tune_keys, {"kernel=sw_striped_s16_rows_c32", "blocks_per_sm=2", "group=1"});
  REQUIRE(t.kernel16 == Kernel16::rows);
  REQUIRE(t.lane_columns == 32);
  REQUIRE(t.bits == 0);
  REQUIRE(t.blocks_per_sm == 2);
  REQUIRE(t.group == 1);
  REQUIRE(t.split_at_saved_rows);
  REQUIRE(t.split_threads == 4);
  apply_tune(t, gpu_tune_keys, {"traceback_bytes=200000", "split=mm", "split_threads=1"});
  REQUIRE(t.traceback_bytes == 200000);
  REQUIRE_FALSE(t.split_at_saved_rows);
  REQUIRE(t.split_threads == 1);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"split_threads=0"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"split=diagonal"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"kernel=nonesuch"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"lanes=8"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"bits"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"bits=x"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"bits=24"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"lane_columns=7"}), InputError);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"ring_rows=100"}), InputError);  // not a power of two
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"ring_rows=32"}), InputError);   // under 64
  apply_tune(t, gpu_tune_keys, {"ring_rows=128"});
  REQUIRE(t.ring_rows == 128);
  apply_tune(t, gpu_tune_keys, {"bits=32", "lane_columns=16"});
  REQUIRE(t.bits == 32);
  REQUIRE(t.lane_columns == 16);
  apply_tune(t, gpu_tune_keys, {"bits=16"});
  REQUIRE(t.bits == 0);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"db_rows=7"}), InputError);
  apply_tune(t, gpu_tune_keys, {"db_rows=0"});
  REQUIRE(t.db_rows16 == 0);
  for (const int rows : batch_rows16()) {
    apply_tune(t, gpu_tune_keys, {"db_rows=" + std::to_string(rows)});
    REQUIRE(t.db_rows16 == rows);
  }
  REQUIRE(t.prune);
  apply_tune(t, gpu_tune_keys, {"prune=0"});
  REQUIRE(!t.prune);
  REQUIRE_THROWS_AS(apply_tune(t, gpu_tune_keys, {"prune=2"}), InputError);
}
