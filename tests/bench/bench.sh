#!/usr/bin/env bash
# make bench: lockshim's costs, measured side by side with their references
# in one run. Figures, not tests: nothing here passes or fails, a part that
# cannot be measured says why, and the exit status is 0.
#
#   tests/bench/bench.sh        (make bench builds what it needs first)
#
# 1. Verification throughput on the host (verify_throughput.sh): lockshim's
#    core linked against the libcrypto built for UEFI, with assembly and
#    without (what rhboot/shim ships), beside the system OpenSSL's SHA-256
#    over the same bytes (the CPU's limit), on 12 and 128 MiB signed images.
# 2. Boot overhead in QEMU with -icount (boot_overhead.sh): TSC ticks to a
#    12 MiB payload, direct, through lockshim, through Debian's shim 16.1.
# 3. Sizes of lockshimx64.efi and mmx64.efi beside Debian's shim 16.1 ones.
# 4. The wall time of the last whole make check (build/check.json).
# Each figure is the median of several runs. Everything also goes to
# build/bench.json.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

out=build/bench
mkdir -p "$out"
note() { echo "bench: $*" >&2; }

echo "== verification throughput (host; median of 7 runs; MB = 10^6 bytes)"
throughput=null
if tests/bench/verify_throughput.sh --runs 7 --json "$out/throughput.json"; then
	throughput=$(cat "$out/throughput.json")
else
	note "throughput not measured (see above)"
fi

echo "== boot overhead (QEMU -icount shift=0,sleep=off; guest TSC ticks at the payload's entry; median of 3)"
boot=null
if boot_line=$(tests/bench/boot_overhead.sh 3 | tail -n 1) && [[ $boot_line == "{"* ]]; then
	boot=$boot_line
	python3 - "$boot" <<'PY'
import json, sys
b = json.loads(sys.argv[1])
print(f"  direct          {b['direct']:>14,}")
print(f"  lockshim        {b['lockshim']:>14,}  overhead {b['lockshim_overhead']:>+14,}")
print(f"  shim 16.1       {b['shim']:>14,}  overhead {b['shim_overhead']:>+14,}")
print(f"  lockshim overhead / shim overhead: {b['overhead_ratio']}")
PY
	grep -h 'lockshim: crypto:' build/qemu/logs/bench-lockshim.log | head -n1 | sed 's/^/  in QEMU: /'
else
	note "boot overhead not measured (see above)"
fi

echo "== sizes (bytes)"
shim_dir=$(tests/bench/debian-shim.sh 2>/dev/null) || shim_dir=
size_of() { [[ -f $1 ]] && stat -c %s "$1" || echo null; }
ls_efi=$(size_of build/lockshimx64.efi) ls_mm=$(size_of build/mmx64.efi)
shim_efi=$(size_of "$shim_dir/shimx64.efi") shim_mm=$(size_of "$shim_dir/mmx64.efi")
printf '  lockshimx64.efi %9s   Debian shimx64.efi %9s   ratio %s\n' "$ls_efi" "$shim_efi" \
	"$(awk -v a="$ls_efi" -v b="$shim_efi" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "?" }')"
printf '  mmx64.efi       %9s   Debian mmx64.efi   %9s   ratio %s\n' "$ls_mm" "$shim_mm" \
	"$(awk -v a="$ls_mm" -v b="$shim_mm" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "?" }')"

echo "== make check"
check=null
if [[ -s build/check.json ]]; then
	check=$(cat build/check.json)
	python3 - <<'PY'
import json
c = json.load(open("build/check.json"))
print(f"  last whole run: {c['seconds'] / 60:.1f} min, {c['passed']} passed, {c['failed']} failed, finished {c['finished']}")
PY
else
	echo "  not measured: run make check first (it writes build/check.json)"
fi

cat >build/bench.json <<JSON
{
  "throughput": $throughput,
  "boot": $boot,
  "sizes": {"lockshimx64.efi": $ls_efi, "mmx64.efi": $ls_mm, "debian_shimx64.efi": $shim_efi, "debian_mmx64.efi": $shim_mm},
  "check": $check
}
JSON
python3 -m json.tool build/bench.json >/dev/null || note "build/bench.json is not valid JSON"
echo "bench: figures in build/bench.json"
exit 0
