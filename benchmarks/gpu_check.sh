#!/usr/bin/env bash
# The one prepared GPU check of the batched engine (docs/batched.md): run it from the
# repository root on a machine with a CUDA device. It writes its logs under $OUT
# (default ./gpu_check_out): the differential test on the CUDA device first (the
# batched engine on cuda against the scalar env, and cuda against cpu integer state),
# then the benchmark, the table last.
set -u
OUT="${OUT:-./gpu_check_out}"
mkdir -p "$OUT"
PY="${PYTHON:-python}"
export PYTHONPATH="${PYTHONPATH:-.}"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || true
"$PY" -c "import torch; print(torch.__version__, torch.cuda.is_available(), torch.cuda.get_device_name(0))" \
  > "$OUT/device.txt" 2>&1
timeout 300 "$PY" -m pytest -q -p no:cacheprovider tests/batched/test_cuda.py \
  > "$OUT/differential_cuda.log" 2>&1
echo "differential test exit code: $?" >> "$OUT/differential_cuda.log"
timeout 240 "$PY" benchmarks/bench_batched.py --device cuda --seconds 1 \
  --sizes 1024 16384 65536 262144 --only "stud heads-up" "stud 6-max" "cowpie heads-up" \
  > "$OUT/bench_cuda.md" 2>&1
echo "benchmark exit code: $?" >> "$OUT/bench_cuda.md"
tail -n 3 "$OUT/differential_cuda.log"
cat "$OUT/bench_cuda.md"
