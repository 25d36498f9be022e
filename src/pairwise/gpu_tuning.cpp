#include "pairwise/gpu_tuning.hpp"

#include <algorithm>
#include <string>

#include "core/build.hpp"
#include "pairwise/batch_gpu.hpp"

namespace gdp::pairwise {

namespace {
constexpr KernelVariant kVariants[] = {
    {"sw_striped_s32_c8", KernelKind::s32, 8},
    {"sw_striped_s32_c16", KernelKind::s32, 16},
    {"sw_striped_s16_diag_c8", KernelKind::s16_diagonal, 8},
    {"sw_striped_s16_diag_c16", KernelKind::s16_diagonal, 16},
    {"sw_striped_s16_diag_c32", KernelKind::s16_diagonal, 32},
    {"sw_striped_s16_diag_c64", KernelKind::s16_diagonal, 64},
    {"sw_striped_s16_rows_c8", KernelKind::s16_rows, 8},
    {"sw_striped_s16_rows_c16", KernelKind::s16_rows, 16},
    {"sw_striped_s16_rows_c32", KernelKind::s16_rows, 32},
    {"sw_striped_s16_rows_c64", KernelKind::s16_rows, 64},
    {"sw_striped_s16_rebased_c8", KernelKind::s16_rebased, 8},
    {"sw_striped_s16_rebased_c16", KernelKind::s16_rebased, 16},
    {"sw_striped_s16_rebased_c32", KernelKind::s16_rebased, 32},
    {"sw_striped_s16_rebased_c64", KernelKind::s16_rebased, 64},
};
}  // namespace

std::span<const KernelVariant> kernel_variants() {
  if constexpr (have_cuda) return kVariants;
  return {};
}

GpuTuning tuning_for(const KernelVariant& v, GpuTuning base) {
  base.lane_columns = v.lane_columns;
  base.bits = v.kind == KernelKind::s32 ? 32 : 0;
  base.kernel16 = v.kind == KernelKind::s16_rows      ? Kernel16::rows
                  : v.kind == KernelKind::s16_rebased ? Kernel16::rebased
                                                      : Kernel16::diagonal;
  return base;
}

const std::array<TuneKey<GpuTuning>, 15> gpu_tune_keys{{
    {"kernel", "a score kernel by name (sw_striped_s32_c8, sw_striped_s16_diag_c64, ...)",
     [](GpuTuning& t, std::string_view v) {
       for (const KernelVariant& k : kVariants)
         if (k.name == v) return void(t = tuning_for(k, t));
       throw InputError("--tune kernel=" + std::string(v) + ": no such kernel");
     }},
    {"bits", "32: no 16-bit pass; 16: where the scores allow",
     [](GpuTuning& t, std::string_view v) {
       const long long b = tune_int("bits", v, 0, 32);
       if (b != 0 && b != 16 && b != 32) throw InputError("--tune bits takes 16 or 32 (0: 16)");
       t.bits = b == 32 ? 32 : 0;
     }},
    {"lane_columns", "8, 16, 32 or 64 columns a lane",
     [](GpuTuning& t, std::string_view v) {
       const long long c = tune_int("lane_columns", v, 0, 64);
       if (c != 0 && c != 8 && c != 16 && c != 32 && c != 64)
         throw InputError("--tune lane_columns takes 8, 16, 32 or 64 (0: by the shape)");
       t.lane_columns = static_cast<int>(c);
     }},
    {"kernel16", "diagonal, rows or rebased",
     [](GpuTuning& t, std::string_view v) {
       if (v != "diagonal" && v != "rows" && v != "rebased")
         throw InputError("--tune kernel16 takes diagonal, rows or rebased");
       t.kernel16 = v == "rows" ? Kernel16::rows : v == "rebased" ? Kernel16::rebased : Kernel16::diagonal;
     }},
    {"group", "1: every strip hands over through device memory",
     [](GpuTuning& t, std::string_view v) { t.group = static_cast<int>(tune_int("group", v, 0, 4)); }},
    {"blocks_per_sm", "blocks an SM",
     [](GpuTuning& t, std::string_view v) { t.blocks_per_sm = static_cast<int>(tune_int("blocks_per_sm", v, 0, 64)); }},
    {"max_slots", "ring slots at most",
     [](GpuTuning& t, std::string_view v) { t.max_slots = tune_int("max_slots", v, 0, 1LL << 40); }},
    {"piece_columns", "target columns a launch",
     [](GpuTuning& t, std::string_view v) { t.piece_columns = tune_int("piece_columns", v, 0, 1LL << 40); }},
    {"db_chunk", "target residues a database-search chunk on the device",
     [](GpuTuning& t, std::string_view v) { t.db_chunk_residues = tune_int("db_chunk", v, 0, 1LL << 40); }},
    {"db_rows", "query rows a lane of the database search's 16-bit kernel",
     [](GpuTuning& t, std::string_view v) {
       const auto choices = batch_rows16();
       const int rows = static_cast<int>(tune_int("db_rows", v, 0, 64));
       if (rows != 0 && std::find(choices.begin(), choices.end(), rows) == choices.end()) {
         std::string list;
         for (const int c : choices) list += std::to_string(c) + ", ";
         throw InputError("--tune db_rows takes " + list + "or 0 (by the query's length)");
       }
       t.db_rows16 = rows;
     }},
    {"prune", "0: no block pruning in local passes; 1: pruning (the default)",
     [](GpuTuning& t, std::string_view v) { t.prune = tune_int("prune", v, 0, 1) == 1; }},
    {"ring_rows", "rows a ring slot holds (a power of two, at least 64): a window that wraps",
     [](GpuTuning& t, std::string_view v) {
       const long long rows = tune_int("ring_rows", v, 0, 1LL << 30);
       if (rows != 0 && (rows < 64 || (rows & (rows - 1)) != 0))
         throw InputError("--tune ring_rows takes a power of two of at least 64 (0: whole columns where they fit)");
       t.ring_rows = rows;
     }},
    {"traceback_bytes", "device bytes a full alignment's chunked traceback may keep (0: half the free memory)",
     [](GpuTuning& t, std::string_view v) { t.traceback_bytes = tune_int("traceback_bytes", v, 0, 1LL << 50); }},
    {"split", "rows or mm: how a pair too large for the chunked traceback splits",
     [](GpuTuning& t, std::string_view v) {
       if (v != "rows" && v != "mm") throw InputError("--tune split takes rows or mm");
       t.split_at_saved_rows = v == "rows";
     }},
    {"split_threads", "host threads that align a split's parts side by side on the device (1: one after another)",
     [](GpuTuning& t, std::string_view v) { t.split_threads = static_cast<int>(tune_int("split_threads", v, 1, 64)); }},
}};

}  // namespace gdp::pairwise
