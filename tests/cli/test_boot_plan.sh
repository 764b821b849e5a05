#!/usr/bin/env bash
# The boot plan is described once (src/core/boot_plan.h) and executed on two
# sides: the firmware (src/efi/efi_main.c, boot_step_run) and `lockshim
# check` (src/cli/boot_chain.c, plan_step). Each handles every step in a
# switch without a default, so a step added to the plan that one side does
# not handle must fail that side's build. Shown here: both files compile
# with the plan as it is, and neither compiles with a copy of boot_plan.h
# that has one step more, each with the compiler's -Wswitch error.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in efi-shell host; do
	if [[ ! -s $BUILD/flags/$f ]]; then
		not_ok "boot plan: $BUILD/flags/$f missing (run make first)"
		exit 1
	fi
done
read -r -a efi <"$BUILD/flags/efi-shell"
read -r -a host <"$BUILD/flags/host"

# compiles NAME PLAN_DIR: both executors against the boot_plan.h in PLAN_DIR
# (-iquote: searched before the -I directories); sets $efi_rc, $host_rc.
compiles() {
	"${efi[@]}" -Werror -iquote "$2" -DLOCKSHIM_VERSION='"test"' -DDEFAULT_LOADER='L"vmlinuz.efi"' \
		-c src/efi/efi_main.c -o "$tmp/$1-efi.o" >"$tmp/$1-efi.log" 2>&1
	efi_rc=$?
	"${host[@]}" -Werror -iquote "$2" -Isrc/cli -c src/cli/boot_chain.c -o "$tmp/$1-cli.o" \
		>"$tmp/$1-cli.log" 2>&1
	host_rc=$?
}

mkdir -p "$tmp/same" "$tmp/added"
cp src/core/boot_plan.h "$tmp/same/"
sed 's/^\tBOOT_STEP_START,$/&\n\tBOOT_STEP_ADDED_BY_THE_TEST,/' src/core/boot_plan.h >"$tmp/added/boot_plan.h"
if ! grep -q BOOT_STEP_ADDED_BY_THE_TEST "$tmp/added/boot_plan.h"; then
	not_ok "boot plan: could not add a step to a copy of boot_plan.h (its last step moved?)"
	exit 1
fi

compiles same "$tmp/same"
if (( efi_rc == 0 && host_rc == 0 )); then
	ok "boot plan: the firmware and check both build with the plan as it is"
else
	not_ok "boot plan: the plan as it is does not build: $(head -n 3 "$tmp"/same-*.log)"
fi
compiles added "$tmp/added"
for side in efi:src/efi/efi_main.c cli:src/cli/boot_chain.c; do
	rc_var=${side%%:*}_rc
	[[ $side == cli:* ]] && rc_var=host_rc
	log=$tmp/added-${side%%:*}.log
	if (( ${!rc_var} != 0 )) && grep -q "BOOT_STEP_ADDED_BY_THE_TEST.*not handled in switch" "$log"; then
		ok "boot plan: a step added to the plan fails ${side#*:} until it is handled"
	else
		not_ok "boot plan: ${side#*:} builds with a step it does not handle: $(head -n 3 "$log")"
	fi
done
exit $failed
