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
#    12 MiB payload, direct, through lockshim, through Debian's shim 16.1;
#    and Debian's chain (firmware -> first stage -> Debian's signed GRUB ->
#    the payload) with lockshim and with shim 16.1 as its first stage.
# 3. Sizes of lockshimx64.efi (test build and with Debian's certificate)
#    and mmx64.efi beside Debian's shim 16.1 ones, and what the stack
#    protector adds to each: both built again with
#    STACK_PROTECTOR=-fno-stack-protector (build/bench/no-ssp).
# 4. lockshim check on a machine with 20 kernels (check_speed.sh; issue 26
#    asks for under a second).
# 5. The wall time of the last whole make check (build/check.json).
# Each figure is the median of several runs. Everything also goes to
# build/bench.json.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# for DEBIAN_CHAIN_BUILD, where boot_overhead.sh builds lockshim with
# Debian's certificate
. tests/qemu/lib.sh
. tests/qemu/debian-chain.sh

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
def ticks(k): return "  not measured" if b[k] is None else f"{b[k]:>14,}"
def overhead(k): return "" if b[k] is None else f"  overhead {b[k]:>+14,}"
print(f"  direct          {ticks('direct')}")
print(f"  lockshim        {ticks('lockshim')}{overhead('lockshim_overhead')}")
print(f"  shim 16.1       {ticks('shim')}{overhead('shim_overhead')}")
print(f"  lockshim overhead / shim overhead: {b['overhead_ratio']}")
print("  Debian's chain (Boot0001 -> first stage -> Debian's GRUB -> chainloader -> payload):")
print(f"  lockshim        {ticks('chain_lockshim')}")
print(f"  shim 16.1       {ticks('chain_shim')}")
d = "?" if b["chain_difference"] is None else f"{b['chain_difference']:+,}"
print(f"  lockshim - shim: {d}   lockshim / shim: {b['chain_ratio']}")
PY
	grep -h 'lockshim: crypto:' build/qemu/logs/bench-lockshim.log | head -n1 | sed 's/^/  in QEMU: /'
else
	note "boot overhead not measured (see above)"
fi

echo "== sizes (bytes)"
shim_dir=$(tests/bench/debian-shim.sh 2>/dev/null) || shim_dir=
size_of() { [[ -f $1 ]] && stat -c %s "$1" || echo null; }
# size_row NAME SIZE SHIM_NAME SHIM_SIZE: one line of the table.
size_row() {
	printf '  %-31s %9s   %-18s %9s   ratio %s\n' "$1" "$2" "$3" "$4" \
		"$(awk -v a="$2" -v b="$4" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "?" }')"
}
ls_efi=$(size_of build/lockshimx64.efi) ls_mm=$(size_of build/mmx64.efi)
# Built by boot_overhead.sh; like shim-unsigned's shimx64.efi, it embeds
# Debian's certificate (and Debian's dbx, which shim-unsigned's lacks).
ls_debian=$(size_of "$DEBIAN_CHAIN_BUILD/lockshimx64.efi")
shim_efi=$(size_of "$shim_dir/shimx64.efi") shim_mm=$(size_of "$shim_dir/mmx64.efi")
size_row lockshimx64.efi "$ls_efi" "Debian shimx64.efi" "$shim_efi"
size_row "lockshimx64.efi, Debian's cert" "$ls_debian" "Debian shimx64.efi" "$shim_efi"
size_row mmx64.efi "$ls_mm" "Debian mmx64.efi" "$shim_mm"
# The stack protector's cost in size: the same images built without it.
nossp=build/bench/no-ssp nossp_efi=null nossp_mm=null
if make -s -j"${LOCKSHIM_JOBS:-2}" BUILD="$nossp" STACK_PROTECTOR=-fno-stack-protector \
	VENDOR_CERT="$PWD/build/pki/vendor.der" "$nossp/lockshimx64.efi" "$nossp/mmx64.efi" \
	>"$out/no-ssp.log" 2>&1; then
	nossp_efi=$(size_of "$nossp/lockshimx64.efi") nossp_mm=$(size_of "$nossp/mmx64.efi")
	[[ "$ls_efi $ls_mm $nossp_efi $nossp_mm" != *null* ]] && printf '  stack protector: lockshimx64.efi %+d (%s without), mmx64.efi %+d (%s without)\n' \
		$((ls_efi - nossp_efi)) "$nossp_efi" $((ls_mm - nossp_mm)) "$nossp_mm"
else
	note "no build without the stack protector (see $out/no-ssp.log)"
fi

echo "== lockshim check (host; median of 5 runs)"
check_speed=null
if speed_line=$(tests/bench/check_speed.sh 5) && [[ ${speed_line##*$'\n'} == "{"* ]]; then
	echo "${speed_line%$'\n'*}"
	check_speed=${speed_line##*$'\n'}
else
	note "lockshim check not measured (see above)"
fi

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
  "sizes": {"lockshimx64.efi": $ls_efi, "lockshimx64.efi_debian_cert": $ls_debian, "mmx64.efi": $ls_mm, "debian_shimx64.efi": $shim_efi, "debian_mmx64.efi": $shim_mm, "lockshimx64.efi_no_stack_protector": $nossp_efi, "mmx64.efi_no_stack_protector": $nossp_mm},
  "check_speed": $check_speed,
  "check": $check
}
JSON
python3 -m json.tool build/bench.json >/dev/null || note "build/bench.json is not valid JSON"
echo "bench: figures in build/bench.json"
exit 0
