# Sourced by the benchmark scripts: prints where a figure was measured. The model name alone does
# not tell machines apart (cloud hosts report "AMD EPYC" for Zen 3, Zen 4 and Zen 5 alike), so the
# family, model and stepping are printed too (AMD family 25 = Zen 3 / Zen 4, 26 = Zen 5), with
# threads per core (1: each vCPU is its own core as far as the guest is told) and the vector flags
# the kernels dispatch on.
print_cpu() {
  local field
  field() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'; }
  echo "cpu: $(field 'model name'); vendor $(field vendor_id), family $(field 'cpu family'), model $(field model), stepping $(field stepping)"
  echo "topology: $(nproc) online, $(lscpu 2>/dev/null | sed -n 's/^Thread(s) per core: *//p') thread(s) per core"
  echo "flags: $(grep -m1 flags /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|f16c|avx512f|avx512bw|avx512vl|avx512_bf16|avx512_vnni|avx_vnni)$' | tr '\n' ' ')"
}
