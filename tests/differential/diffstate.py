#!/usr/bin/env python3
"""Machine states for the differential test of `lockshim check`.

    diffstate.py generate SEED INDEX OUT.json
    diffstate.py materialize STATE.json POOL.txt BASE_VARS DIR
    diffstate.py compare STATE.json DIR

generate: state INDEX of the run SEED (the same pair always gives the same
state): boot options (BootOrder, BootNext, inactive options, options whose
file is missing), what each starts (lockshim, Debian's GRUB, systemd-boot,
a kernel, through the removable path), the ESP's files drawn from the pool
(tests/differential/lib.sh: images signed by the vendor, db, MOK, rogue and
revoked keys, unsigned, revoked by dbx, the vendor dbx, MokListX and
SbatLevel), grub.cfg or loader.conf and entries, MokList, MokListX,
SbatLevel, MokDBState and a pending MokNew (with the MOK manager beside
lockshim). A state is data: the file a
regression replays.

materialize: DIR/esp (the ESP's files, hard links into the pool),
DIR/vars.fd (BASE_VARS with the state's variables written as the OS or the
MOK manager leaves them, tests/qemu/mkdmpstore.py) and DIR/efivars (what
efivarfs shows of that store once lockshim has booted: every runtime
variable, SecureBoot, SetupMode, and lockshim's mirrors MokListRT,
MokListXRT, SbatLevelRT, MokIgnoreDB).

compare: DIR/boot.log (the serial log of the boot) against DIR/check.json
and DIR/check.rc (`lockshim check --json` on DIR/efivars and DIR/esp),
option by option as the firmware tried them: whether the firmware started
the first stage, lockshim's verdict on the second stage and on the default
kernel, whether the option booted, which kernel started, and check's exit
status against whether the machine reached a kernel; and check.json must be
check's document or error object (docs/lockshim.schema.json). Writes DIR/result.json
and prints one line; exit status 0 when they agree, 1 when they differ.
"""
import json
import os
import random
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))
import check_boots  # noqa: E402  (the log's shapes, one definition)
sys.path.insert(0, os.path.join(HERE, ".."))
import json_schema_check  # noqa: E402
import mkdmpstore  # noqa: E402

VERSION = 1
GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
SHIM = "605dab50-e046-4300-abb6-3dd810dd8b23"
SECDB = "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
CMDLINE = "console=ttyS0 panic=-1 lockshim.diff="

KERNELS = ["k-db", "k-mok", "k-rogue", "k-revoked", "k-unsigned", "k-dbx", "k-vdbx", "k-mkx",
           "k-sb5", "k-vendor"]
# how often each kernel is drawn: Debian's kernel decompresses itself for
# seconds in TCG before its command line shows
KERNEL_WEIGHTS = [8, 5, 1, 1, 1, 1, 1, 2, 2, 2]
GRUBS = ["grub-vendor", "grub-db", "grub-mok", "grub-rogue", "grub-unsigned"]
GRUB_WEIGHTS = [8, 1, 1, 1, 1]
SDBOOTS = ["sdboot-db", "sdboot-mok", "sdboot-rogue", "sdboot-unsigned"]
SDBOOT_WEIGHTS = [6, 3, 1, 1]
LOCKSHIMS = ["lockshim-db", "lockshim-rogue", "lockshim-unsigned"]
LOCKSHIM_WEIGHTS = [16, 1, 1]
LEVELS = [None, "level-automatic", "level-plain", "level-grub6", "level-sb6", "level-linux2"]
LEVEL_WEIGHTS = [4, 2, 2, 1, 2, 1]
LOCKSHIM_DIR = "EFI/debian"
MOKUTIL_VECTOR = os.path.join(HERE, "..", "vectors", "mokutil", "import_hashfile")


def pick(rng, items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


def grub_cfg(rng, kernels, files):
    """A grub.cfg of 1-3 entries (some in a submenu), its default, and the
    kernel each entry boots."""
    n = rng.randint(1, 3)
    entries = []
    for i in range(n):
        k = pick(rng, KERNELS, KERNEL_WEIGHTS)
        path = f"/boot/vmlinuz-{i}-{k}"
        if rng.random() < 0.9:
            files[path.lstrip("/")] = k
        entries.append((f"Debian GNU/Linux {i}", path, f"g{i}"))
    sub = n > 1 and rng.random() < 0.2
    lines = ["set timeout=0"]
    d = rng.random()
    default_index = 0
    if d < 0.4:
        default_index = rng.randrange(n)
        if sub and default_index > 0:
            lines.append(f"set default='Advanced>{entries[default_index][0]}'")
        else:
            lines.append(f"set default={default_index if not sub else 0}")
            default_index = default_index if not sub else 0
    elif d < 0.6:
        default_index = rng.randrange(n)
        if sub and default_index > 0:
            default_index = 0
        lines.append(f"set default='{entries[default_index][0]}'")
    body = []
    for i, (title, path, eid) in enumerate(entries):
        entry = [f"menuentry '{title}' {{", f"\tlinux {path} {CMDLINE}{eid}", "}"]
        if sub and i > 0:
            entry = ["\t" + line for line in entry]
        body.append(entry)
    lines += body[0]
    if sub:
        lines.append("submenu 'Advanced' {")
        for entry in body[1:]:
            lines += entry
        lines.append("}")
    else:
        for entry in body[1:]:
            lines += entry
    eol = "\r\n" if rng.random() < 0.05 else "\n"
    kernels.update({eid: path for _, path, eid in entries})
    return eol.join(lines) + eol, entries[default_index][2]


def sdboot_conf(rng, kernels, files):
    """loader.conf and 1-3 Type #1 entries (ids s0.., sort-key and
    version sometimes; now and then both linux and efi)."""
    n = rng.randint(1, 3)
    entries = {}
    for i in range(n):
        k = pick(rng, KERNELS, KERNEL_WEIGHTS)
        path = f"/EFI/kernels/vmlinuz-{i}-{k}.efi"
        if rng.random() < 0.9:
            files[path.lstrip("/")] = k
        eid = f"s{i}"
        text = [f"title Debian {eid}"]
        if rng.random() < 0.3:
            text.append(f"sort-key {rng.choice(['a', 'b'])}")
        if rng.random() < 0.3:
            text.append(f"version 6.{rng.randint(1, 12)}")
        text.append(f"linux {path}")
        if rng.random() < 0.08:
            k2 = pick(rng, KERNELS, KERNEL_WEIGHTS)
            p2 = f"/EFI/kernels/efi-{i}-{k2}.efi"
            files[p2.lstrip("/")] = k2
            text.append(f"efi {p2}")
            path = p2  # systemd-boot 252 loads the later of linux and efi
        text.append(f"options {CMDLINE}{eid}")
        kernels[eid] = path
        entries[f"{eid}.conf"] = "\n".join(text) + "\n"
    conf = ["timeout 0", "editor no"]
    if rng.random() < 0.7:
        conf.append(f"default {rng.choice(list(entries))[:-5]}{rng.choice(['', '*'])}")
    return "\n".join(conf) + "\n", entries


def generate(seed, index):
    rng = random.Random(f"lockshim-differential {VERSION} {seed} {index}")
    files, kernels = {}, {}
    state = {"version": VERSION, "seed": seed, "index": index, "id": f"{seed}-{index}",
             "files": files, "kernels": kernels, "options": []}
    lockshim = pick(rng, LOCKSHIMS, LOCKSHIM_WEIGHTS)
    files[f"{LOCKSHIM_DIR}/lockshimx64.efi"] = lockshim
    kinds = []
    n = rng.choice([1, 2, 2, 3, 3])
    for i in range(n):
        kinds.append(rng.choices(["grub", "sdboot", "kernel", "missing", "direct"],
                                 weights=[6, 5, 3, 1, 1])[0])
    if "grub" in kinds or rng.random() < 0.1:
        files[f"{LOCKSHIM_DIR}/grubx64.efi"] = pick(rng, GRUBS, GRUB_WEIGHTS)
        state["grub_cfg"], _ = grub_cfg(rng, kernels, files)
    if "sdboot" in kinds:
        files["EFI/systemd/systemd-bootx64.efi"] = pick(rng, SDBOOTS, SDBOOT_WEIGHTS)
        state["loader_conf"], state["entries"] = sdboot_conf(rng, kernels, files)
    for i, kind in enumerate(kinds):
        # from Boot0010 on: clear of the options OVMF made for itself
        num = 0x10 + i
        opt = {"num": num, "desc": f"{kind} {num}", "active": rng.random() > 0.1,
               "path": "\\EFI\\debian\\lockshimx64.efi", "data": None}
        if kind == "sdboot":
            opt["data"] = "\\EFI\\systemd\\systemd-bootx64.efi"
        elif kind == "kernel":
            k = pick(rng, KERNELS, KERNEL_WEIGHTS)
            name = f"opt{num}-{k}.efi"
            files[f"{LOCKSHIM_DIR}/{name}"] = k
            eid = f"o{num}"
            kernels[eid] = "\\EFI\\debian\\" + name
            opt["data"] = f"{name} {CMDLINE}{eid}"
        elif kind == "missing":
            opt["path"] = "\\EFI\\debian\\gone.efi"
        elif kind == "direct":
            # the firmware starts a kernel itself: db decides, not lockshim
            k = pick(rng, ["k-db", "k-mok", "k-unsigned"], [2, 1, 1])
            name = f"direct{num}-{k}.efi"
            files[f"EFI/direct/{name}"] = k
            opt["path"] = "\\EFI\\direct\\" + name
            eid = f"d{num}"
            kernels[eid] = opt["path"]
            opt["data"] = f"{CMDLINE}{eid}"  # the EFI stub's command line
        state["options"].append(opt)
    order = [o["num"] for o in state["options"]]
    rng.shuffle(order)
    state["boot_order"] = order
    state["boot_next"] = rng.choice(order) if rng.random() < 0.2 else None
    if rng.random() < 0.3:
        # the removable path: lockshim and GRUB, as a distribution's fallback has them
        files["EFI/BOOT/BOOTX64.EFI"] = pick(rng, LOCKSHIMS, LOCKSHIM_WEIGHTS)
        files["EFI/BOOT/grubx64.efi"] = pick(rng, GRUBS, GRUB_WEIGHTS)
        if "grub_cfg" not in state:
            state["grub_cfg"], _ = grub_cfg(rng, kernels, files)
    variables = {}
    r = rng.random()
    if r < 0.5:
        variables["MokList"] = ["esl-mok"] + (["esl-rogue"] if rng.random() < 0.2 else [])
    elif r < 0.6:
        variables["MokList"] = ["esl-rogue"]
    if rng.random() < 0.25:
        variables["MokListX"] = [pick(rng, ["esl-k-mkx", "esl-mok", "esl-grub", "esl-db"],
                                      [4, 2, 1, 1])]
    level = pick(rng, LEVELS, LEVEL_WEIGHTS)
    if level:
        variables["SbatLevel"] = level
    if rng.random() < 0.08:
        variables["MokDBState"] = 1
    if rng.random() < 0.1:
        # mokutil --import's request (tests/vectors), which the owner turns
        # down at the MOK manager's prompt: this boot goes on as before it
        variables["MokNew"] = True
        for rel, name in list(files.items()):
            if name.startswith("lockshim-"):
                files[rel.rsplit("/", 1)[0] + "/mmx64.efi"] = "mm-db"
    state["variables"] = variables
    return state


# ---- materialize ----------------------------------------------------------------

def load_option(desc, path, data, active):
    name = (path + "\0").encode("utf-16-le")
    dp = struct.pack("<BBH", 4, 4, 4 + len(name)) + name + struct.pack("<BBH", 0x7F, 0xFF, 4)
    out = struct.pack("<IH", 1 if active else 0, len(dp)) + (desc + "\0").encode("utf-16-le") + dp
    if data is not None:
        out += (data + "\0").encode("utf-16-le")
    return out


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def materialize(state_path, pool_path, base_vars, d):
    state = json.load(open(state_path))
    pool = dict(line.split(" ", 1) for line in open(pool_path).read().splitlines())
    esp = os.path.join(d, "esp")
    for rel, name in state["files"].items():
        dst = os.path.join(esp, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.link(pool[name], dst)
    if "grub_cfg" in state:
        write(os.path.join(esp, LOCKSHIM_DIR, "grub.cfg"), state["grub_cfg"].encode())
    if "loader_conf" in state:
        write(os.path.join(esp, "loader", "loader.conf"), state["loader_conf"].encode())
        for name, text in state["entries"].items():
            write(os.path.join(esp, "loader", "entries", name), text.encode())

    # the variables: NAME GUID ATTRS DATA, as the store will hold them
    var = {}
    for o in state["options"]:
        var[f"Boot{o['num']:04X}"] = (GLOBAL, 0x7, load_option(o["desc"], o["path"], o["data"],
                                                              o["active"]))
    var["BootOrder"] = (GLOBAL, 0x7, b"".join(struct.pack("<H", n) for n in state["boot_order"]))
    if state.get("boot_next") is not None:
        var["BootNext"] = (GLOBAL, 0x7, struct.pack("<H", state["boot_next"]))
    v = state["variables"]
    lists = {k: b"".join(open(pool[n], "rb").read() for n in v[k]) for k in ("MokList", "MokListX")
             if k in v}
    for k, data in lists.items():
        var[k] = (SHIM, 0x3, data)
    if "SbatLevel" in v:
        var["SbatLevel"] = (SHIM, 0x3, open(pool[v["SbatLevel"]], "rb").read())
    if v.get("MokDBState"):
        var["MokDBState"] = (SHIM, 0x3, bytes([v["MokDBState"]]))
    if v.get("MokNew"):
        for name in ("MokNew", "MokAuth"):
            with open(os.path.join(MOKUTIL_VECTOR, name + ".bin"), "rb") as f:
                var[name] = (SHIM, 0x7, f.read())
    vars_fd = os.path.join(d, "vars.fd")
    with open(base_vars, "rb") as f:
        write(vars_fd, f.read())
    specs = []
    for name, (guid, attrs, data) in var.items():
        p = os.path.join(d, "var", name)
        write(p, data)
        specs.append(f"{name}:{guid}:{attrs:#x}={p}")
    mkdmpstore.cmd_set(vars_fd, specs)

    # efivarfs after lockshim's boot: the runtime variables, then lockshim's mirrors
    ev = os.path.join(d, "efivars")
    os.makedirs(ev)

    def efivar(name, guid, attrs, data):
        write(os.path.join(ev, f"{name}-{guid}"), struct.pack("<I", attrs) + data)

    for name, guid, attrs, data in mkdmpstore.read_store(vars_fd):
        if attrs & 0x4:
            efivar(name, guid, attrs, data)
    efivar("SecureBoot", GLOBAL, 0x6, b"\x01")
    efivar("SetupMode", GLOBAL, 0x6, b"\x00")
    vendor = open(pool["vendor"], "rb").read()
    vendor_dbx = open(pool["vendor-dbx"], "rb").read()
    efivar("MokListRT", SHIM, 0x6, vendor + lists.get("MokList", b""))
    efivar("MokListXRT", SHIM, 0x6, vendor_dbx + lists.get("MokListX", b""))
    if "SbatLevel" in v:
        efivar("SbatLevelRT", SHIM, 0x6, open(pool[v["SbatLevel"]], "rb").read())
    if v.get("MokDBState"):
        efivar("MokIgnoreDB", SHIM, 0x6, b"\x01")


# ---- compare ------------------------------------------------------------------

CMDLINE_RE = re.compile(r"Command line: .*lockshim\.diff=(\S+)")
GRUB_ERROR = re.compile(r"^error: (.*)$")
SD_ERROR = re.compile(r"Error loading (\S+): (.*)$")
LOAD_FAILED = re.compile(r'^BdsDxe: failed to load (Boot[0-9A-F]{4}) "([^"]*)"')
STARTING = re.compile(r'^BdsDxe: starting (Boot[0-9A-F]{4}) ')


def observe(lines):
    """What the boot did: [{option, desc, started, records, failed, kernel,
    grub_error, sd_error}] in the order the firmware tried them."""
    seen, cur = [], None
    for line in lines:
        m = check_boots.LOADING.match(line) or LOAD_FAILED.match(line)
        # OVMF says nothing before it fails to find an option's file
        if m and not (cur and m.re is LOAD_FAILED and cur["option"] == m.group(1)
                      and not cur["failed"]):
            cur = {"option": m.group(1), "desc": m.group(2), "started": False, "records": [],
                   "from": line.split('" from ', 1)[-1].rsplit(": ", 1)[0],
                   "failed": None, "kernel": None, "grub_error": None, "sd_error": None,
                   "lockshim": False}
            seen.append(cur)
            if m.re is check_boots.LOADING:
                continue
        if cur is None or (m and m.re is check_boots.LOADING):
            continue
        if STARTING.match(line):
            cur["started"] = True
        if check_boots.BANNER.match(line):
            cur["lockshim"] = True
        m = check_boots.FAILED.match(line)
        if m:
            cur["failed"] = m.group(3)
        m = check_boots.RECORD.match(line)
        if m:
            cur["records"].append(check_boots.parse_record(m.group(1)))
        if check_boots.KERNEL.match(line) and not cur["kernel"]:
            cur["kernel"] = "(a kernel whose command line names no entry)"
        m = CMDLINE_RE.search(line)
        if m:
            cur["kernel"] = m.group(1)
        m = GRUB_ERROR.match(line)
        if m and not cur["grub_error"]:
            cur["grub_error"] = m.group(1)
        m = SD_ERROR.search(line)
        if m and not cur["sd_error"]:
            cur["sd_error"] = f"{m.group(1)}: {m.group(2)}"
    return seen


FIRMWARE_APPS = ("EFI Internal Shell", "UiApp", "UEFI PXE", "UEFI HTTP")


def option_name(o):
    """check's name for the firmware's option @o: BootNNNN, "removable" for
    one OVMF made for the disk (a device path to the disk, not a file:
    the firmware starts its removable path), None for OVMF's own
    applications (nothing check answers for)."""
    if o["desc"].startswith(FIRMWARE_APPS):
        return None
    if o["desc"].startswith("UEFI ") and not o["from"].startswith("\\"):
        return "removable"
    return o["option"]


def compare_option(entry, o, sizes, kernels, held):
    """What differs between check's @entry and the firmware's try @o; each
    verdict of lockshim's compared is added to @held."""
    diffs = []
    chain = entry.get("chain") or []
    booted = o["kernel"] is not None
    if entry.get("boots") != booted:
        diffs.append(("boots", f"predicted boots={str(entry.get('boots')).lower()}, "
                      + (f"kernel {o['kernel']} started" if booted else
                         f"no kernel started ({o['failed'] or o['grub_error'] or o['sd_error'] or 'the boot stopped there'})")))
    if chain:
        first = chain[0]
        if (first.get("verdict") == "allowed") != o["started"]:
            diffs.append(("first-stage", f"{first.get('image')}: predicted {first.get('verdict')} "
                          f"({first.get('reason')}), the firmware "
                          f"{'started' if o['started'] else 'did not start'} it"
                          + (f" ({o['failed']})" if o["failed"] else "")))
    if booted and o["kernel"] in kernels:
        want = next((re.sub(r"^\([A-Za-z]+\)", "", c.get("image", "")) for c in chain
                     if c.get("role", "").startswith("default entry")), None)
        if want is not None and want.replace("\\", "/") != kernels[o["kernel"]].replace("\\", "/"):
            diffs.append(("kernel-image", f"predicted the default entry's {want}, "
                          f"{kernels[o['kernel']]} ({o['kernel']}) started"))
    for step in chain[1:]:
        # "(ESP)/boot/vmlinuz": the file system check found it on, then its path
        image = re.sub(r"^\([A-Za-z]+\)", "", step.get("image", ""))
        role = step.get("role", "")
        if role.startswith("entry ") or role.startswith("entry'"):
            continue  # a second stage's other entries: not started in this boot
        back = image.replace("/", "\\")
        # lockshim names an image by its path (a device path's text ending
        # in it), or one a second stage hands it by its size
        got = next((r for r in reversed(o["records"])
                    if r.get("image", "").endswith(back) and back), None)
        if got is None and image in sizes and sizes[image] not in sizes["ambiguous"]:
            got = next((r for r in reversed(o["records"])
                        if r.get("image") == f"buffer:{sizes[image]}"), None)
        if got is None:
            continue  # not reached in this boot (not the default, or an earlier stop)
        held.append(f"{o['option']} {image}: {got.get('verdict')} {got.get('reason')}")
        if got.get("verdict") != step.get("verdict") or got.get("reason") != step.get("reason"):
            diffs.append(("verdict", f"{image} ({step.get('role', '')}): predicted "
                          f"{step.get('verdict')} {step.get('reason')}, lockshim "
                          f"{got.get('verdict')} {got.get('reason')}"))
    return diffs


def compare(state_path, d):
    state = json.load(open(state_path))
    with open(os.path.join(d, "boot.log"), errors="replace") as f:
        lines = f.read().splitlines()
    rc = int(open(os.path.join(d, "check.rc")).read().strip() or "-1")
    try:
        prediction = json.load(open(os.path.join(d, "check.json")))
    except ValueError:
        prediction = None
    # check's document, or its error object on exit 2: the contract of docs/json.md
    schema = json.load(open(os.path.join(HERE, "..", "..", "docs", "lockshim.schema.json")))
    invalid = json_schema_check.problems(schema, prediction, "check") if prediction is not None else []
    sizes = {}
    esp = os.path.join(d, "esp")
    for rel in state["files"]:
        sizes["/" + rel] = os.path.getsize(os.path.join(esp, rel))
        sizes["\\" + rel.replace("/", "\\")] = sizes["/" + rel]
    for rel in list(sizes):
        if rel.startswith("/boot/"):
            sizes[rel[5:]] = sizes[rel]
    # a size two different images share names neither
    owners = {}
    for rel, name in state["files"].items():
        owners.setdefault(sizes["/" + rel], set()).add(name)
    sizes["ambiguous"] = {size for size, names in owners.items() if len(names) > 1}
    tried = observe(lines)
    booted = next((o for o in tried if o["kernel"]), None)
    stuck = None if booted else (tried[-1] if tried else None)
    outcome_file = os.path.join(d, "outcome")
    outcome = open(outcome_file).read().strip() if os.path.exists(outcome_file) else "stopped"
    ended = "kernel" if booted else ("no-option" if any("No bootable option" in l for l in lines)
                                     else outcome)
    diffs, held = [], []
    diffs += [("schema", f"check --json: {e}") for e in invalid[:3]]
    if ended == "timeout":
        # a boot that neither reached a kernel nor gave up in DIFF_TIMEOUT:
        # what it waits for is not modelled, said rather than compared away
        diffs.append(("boot-timeout", f"the boot stopped at no kernel, error or end of "
                      f"options (last tried: {tried[-1]['option'] if tried else 'none'})"))
    if prediction is None or rc == 2:
        diffs.append(("check-error", f"check exit status {rc}"))
        entries = {}
    else:
        # check lists the options in the order the firmware tries them: BootNext's
        # first, then again in BootOrder's place; the tries take them in that order
        entries = {}
        for e in prediction.get("entries", []):
            entries.setdefault(e["option"], []).append(e)
    if entries:
        pending = {name: list(es) for name, es in entries.items()}
        for o in tried:
            name = option_name(o)
            if name is None:
                continue
            left = pending.get(name)
            entry = left.pop(0) if left else (entries[name][-1] if name in entries else None)
            if entry is None:
                diffs.append(("unpredicted", f"{name} \"{o['desc']}\": the firmware tried it, "
                              "check has no entry for it"))
                continue
            diffs += [(k, f"{name}: {t}") for k, t in compare_option(entry, o, sizes, state["kernels"], held)]
        for opt in state["options"]:
            name = f"Boot{opt['num']:04X}"
            entry = entries[name][-1] if name in entries else None  # BootOrder's, not BootNext's
            if (not opt["active"] and opt["num"] != state.get("boot_next") and entry
                    and entry.get("boots") and name not in {o["option"] for o in tried}):
                diffs.append(("inactive", f"{name}: predicted boots=true, the firmware passes "
                              "over an inactive option"))
        machine_boots = booted is not None
        if (rc == 0) != machine_boots:
            diffs.append(("exit-status", f"check exit status {rc}, the machine "
                          + (f"booted {booted['kernel']} from {booted['option']}" if machine_boots
                             else "reached no kernel")))
    result = {
        "id": state["id"], "seed": state["seed"], "index": state["index"], "agree": not diffs,
        "booted": {"option": booted["option"], "kernel": booted["kernel"],
                   "image": state["kernels"].get(booted["kernel"])} if booted else None,
        "ended": ended, "check_rc": rc,
        "tried": [{k: o[k] for k in ("option", "desc", "started", "failed", "kernel",
                                      "grub_error", "sd_error")} for o in tried],
        "predicted": [{"option": e["option"], "boots": e.get("boots"), "why": e.get("why")}
                      for e in (prediction or {}).get("entries", [])],
        "verdicts_compared": held,
        "disagreements": [{"class": k, "what": t} for k, t in diffs],
    }
    if stuck is not None and not booted:
        result["stopped_in"] = stuck["option"]
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    how = (f"booted {booted['kernel']} from {booted['option']}" if booted else f"no kernel ({ended})")
    if diffs:
        print(f"DIFFER {state['id']}: {how}; check rc={rc}; "
              + "; ".join(f"[{k}] {t}" for k, t in diffs))
        return 1
    print(f"agree {state['id']}: {how}; check rc={rc}")
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "generate":
        with open(argv[4], "w") as f:
            json.dump(generate(int(argv[2]), int(argv[3])), f, indent=1)
        return 0
    if len(argv) == 6 and argv[1] == "materialize":
        materialize(*argv[2:6])
        return 0
    if len(argv) == 4 and argv[1] == "compare":
        return compare(argv[2], argv[3])
    print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
