#!/usr/bin/env bash
# lockshim one SBAT generation back: this tree's code and levels, but
# certs/sbat.csv with component lockshim's generation one lower, as the
# release before the last raise carried it. The tests show that the latest
# level (certs/sbat-level-latest.csv) refuses it.
#
#   tests/sbat-previous.sh DIR VENDOR_CERT.der
#
# writes DIR/sbat.csv and DIR/lockshimx64.efi (unsigned), a `make variant`
# of $BUILD's objects (default build/; make all first), and prints the
# previous generation.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=$1 cert=$2
gen=$(sed -n 's/^lockshim,\([0-9][0-9]*\),.*/\1/p' certs/sbat.csv)
[[ $gen =~ ^[1-9][0-9]*$ ]] || {
	echo "sbat-previous: certs/sbat.csv: no lockshim generation above 0" >&2
	exit 1
}
mkdir -p "$dir"
sed "s/^lockshim,$gen,/lockshim,$((gen - 1)),/" certs/sbat.csv >"$dir/sbat.csv.tmp"
# rewritten only when it changes: make then has nothing to do
if cmp -s "$dir/sbat.csv.tmp" "$dir/sbat.csv" 2>/dev/null; then
	rm "$dir/sbat.csv.tmp"
else
	mv "$dir/sbat.csv.tmp" "$dir/sbat.csv"
fi
tests/make-locked.sh -s BUILD="${BUILD:-build}" variant VARIANT="$dir" VARIANT_CERT="$cert" \
	VARIANT_SBAT_CSV="$dir/sbat.csv" >&2
echo $((gen - 1))
