#!/usr/bin/env python3
"""What gestured-mqtt costs while a 10-finger recording is served (docs/performance.md,
"gestured-mqtt"): CPU time (utime + stime from /proc) over the replay's wall time, and peak RSS
(VmHWM), with the broker of scripts/mqtt_test.py (TLS, passwords).
Usage: mqtt_cost.py BUILD_DIR [SECONDS]   (default 30 s of ten fingers gliding, in real time)
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mqtt_test as t  # noqa: E402

TEN_FINGERS = """screen 1920 1080
down 0 200 300 ; down 1 350 300 ; down 2 500 300 ; down 3 650 300 ; down 4 800 300 ; down 5 200 600 ; down 6 350 600 ; down 7 500 600 ; down 8 650 600 ; down 9 800 600
move 0 1000 400 ; move 1 1150 400 ; move 2 1300 400 ; move 3 1450 400 ; move 4 1600 400 ; move 5 1000 700 ; move 6 1150 700 ; move 7 1300 700 ; move 8 1450 700 ; move 9 1600 700 over 2s
up 0 ; up 1 ; up 2 ; up 3 ; up 4 ; up 5 ; up 6 ; up 7 ; up 8 ; up 9
wait 500ms
"""


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])


def main():
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    directory = tempfile.mkdtemp(prefix="gestured-mqtt-cost.")
    os.chmod(directory, 0o755)
    try:
        t.make_pki(directory)
        port = t.free_port()
        broker = t.Broker(directory, port)
        broker.start()
        script = os.path.join(directory, "ten.touches")
        open(script, "w").write(TEN_FINGERS)
        one = os.path.join(directory, "ten.evemu")
        t.run([t.GESTURED, "synth", "--output", one, script])
        recording = os.path.join(directory, "ten-long.evemu")
        # 2.5 s of ten fingers is about 0.35 MiB of evemu: repeat it to the wanted length.
        t.run([sys.executable, os.path.join(t.ROOT, "scripts/long-recording.py"), one, recording,
               str(0.35 * seconds / 2.5)])
        config = os.path.join(directory, "gestured.json5")
        open(config, "w").write(f'{{ screen: {{ width: 1920, height: 1080 }}, layout: "{t.LAYOUT}" }}\n')
        settings = t.write_settings(directory, "mqtt.json5", port, metrics=directory)
        credentials = t.write_credentials(directory, "credentials", "kiosk", "kiosk-secret")
        daemon_socket = os.path.join(directory, "gestured.sock")
        daemon = t.start([t.GESTURED, "replay", "--config", config, "--socket", daemon_socket, "--wait-clients", "1",
                          "--realtime", recording], stdout=subprocess.DEVNULL)
        t.wait_for(lambda: os.path.exists(daemon_socket), 10)
        sidecar = t.Sidecar(directory, "cost", settings, daemon_socket, config, credentials)
        t.wait_for(lambda: any("connected to the broker" in l for l in sidecar.lines()), 10)
        time.sleep(1)
        start_cpu, start = cpu_seconds(sidecar.process.pid), time.monotonic()
        daemon.wait()
        wall = time.monotonic() - start
        cpu = cpu_seconds(sidecar.process.pid) - start_cpu
        print(f"gestured-mqtt while {wall:.1f} s of a 10-finger recording was served: CPU {cpu:.2f} s "
              f"({100 * cpu / wall:.2f} % of one core), peak RSS {status(sidecar.process.pid, 'VmHWM') / 1024:.1f} MiB, "
              f"RSS now {status(sidecar.process.pid, 'VmRSS') / 1024:.1f} MiB")
        sidecar.stop()
        broker.stop()
    finally:
        for process in t.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main()
