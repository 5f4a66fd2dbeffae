#!/usr/bin/python3
"""A uinput panel with a physical path of its own, touched on demand: the panels of the
`gestured map` kernel test (tools/vmtest/kernel-tests.sh, test_map_binds_two_panels).

  map-panel.py RECORDING PHYS GO
      Creates a uinput device from RECORDING's description (evemu format, read by
      uinput-panel.py's parser) with PHYS as its physical path (UI_SET_PHYS: evemu-device and
      uinput-panel.py leave it empty, so two panels made from one description would have
      nothing to tell them apart), prints its event node ("node /dev/input/eventN"), then plays
      RECORDING's events (frames at their recording times) each time a file GO.1, GO.2, …
      appears, printing "played N" after each. Removes the device at SIGTERM.
"""
import fcntl
import importlib.util
import os
import signal
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("uinput_panel", os.path.join(HERE, "uinput-panel.py"))
panel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(panel)

# _IOW('U', 108, char *): the argument is a pointer to the string, which fcntl.ioctl passes for bytes.
UI_SET_PHYS = panel.ioc(1, 108, 8)


def main(path, phys, go):
    name, ids, props, bits, axes, frames = panel.parse(path)
    fd = os.open("/dev/uinput", os.O_WRONLY)
    for kind in sorted(bits.get(0, [])):
        fcntl.ioctl(fd, panel.UI_SET_EVBIT, kind)
        for code in bits.get(kind, []) if kind in panel.SET_BIT else []:
            fcntl.ioctl(fd, panel.SET_BIT[kind], code)
    for prop in props:
        fcntl.ioctl(fd, panel.UI_SET_PROPBIT, prop)
    for code, minimum, maximum, fuzz, flat, resolution in axes:
        fcntl.ioctl(fd, panel.UI_ABS_SETUP, struct.pack("Hxxiiiiii", code, 0, minimum, maximum, fuzz, flat, resolution))
    fcntl.ioctl(fd, UI_SET_PHYS, phys.encode() + b"\0")
    fcntl.ioctl(fd, panel.UI_DEV_SETUP, struct.pack("HHHH80sI", *ids, name.encode()[:79], 0))
    fcntl.ioctl(fd, panel.UI_DEV_CREATE)
    signal.signal(signal.SIGTERM, lambda *_: (fcntl.ioctl(fd, panel.UI_DEV_DESTROY), sys.exit(0)))
    sysname = fcntl.ioctl(fd, panel.UI_GET_SYSNAME, bytes(64)).split(b"\0")[0].decode()
    node = [e for e in os.listdir(f"/sys/devices/virtual/input/{sysname}") if e.startswith("event")][0]
    print(f"node /dev/input/{node}", flush=True)
    number = 1
    while True:
        while not os.path.exists(f"{go}.{number}"):
            time.sleep(0.02)
        start = time.monotonic()
        for frame in frames:
            wait = start + frame[0][0] / 1e6 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            # Stamped by the kernel at the write: the test only needs the touch to arrive.
            os.write(fd, b"".join(panel.EVENT.pack(0, 0, k, c, v) for _, k, c, v in frame))
        print(f"played {number}", flush=True)
        number += 1


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
