#!/usr/bin/env python3
"""gestured-mqtt against a real Mosquitto (docs/fleet.md, "Tests"); run by scripts/mqtt-test.sh.

Starts Debian's mosquitto on a loopback port with a password file (mosquitto_passwd) and TLS
with a CA made now (openssl), gestured replaying a bundled recording through --socket, the
sidecar connected to both, and mosquitto_sub (MQTT 5, retain as published, printing retain and
QoS) as the subscriber. Checks, each failing with what it saw:
  1. the replay reaches MQTT as exactly the expected messages (topics, payloads, retain, QoS),
     computed from `gestured replay`'s own output of the same recording;
  2. the discovery messages have Home Assistant's documented fields with their types;
  3. the metrics file parses (node-exporter's own textfile collector reads it, no scrape
     error) and its counters match the replay's events;
  4. kill -9: availability turns offline (the last will), and online when the sidecar is back;
  5. the broker stopped for a while: memory bounded, drops counted, the sidecar reconnects;
  6. a wrong password and a wrong CA: one log line each, no spin (attempts counted);
  7. a command reaches the daemon where the access rules allow it (root) and is refused
     where they do not (nobody), with the answer on command/result.
Usage: mqtt_test.py BUILD_DIR   (GESTURED_MQTT_OUTAGE_SECONDS: the outage, default 30)
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug"))
GESTURED = os.path.join(BUILD, "gestured")
SIDECAR = os.path.join(BUILD, "gestured-mqtt")
RECORDING = os.path.join(ROOT, "config/recordings/lobby-session.evemu")
LAYOUT = os.path.join(ROOT, "config/layouts/photo-wall.json5")
OUTAGE = int(os.environ.get("GESTURED_MQTT_OUTAGE_SECONDS", "30"))
NODE = "kiosk1"

failures = []
processes = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args, **kwargs):
    process = subprocess.Popen(args, **kwargs)
    processes.append(process)
    return process


def wait_for(predicate, timeout, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def run(args, **kwargs):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


class Broker:
    """mosquitto with TLS and a password file; its log counts connection attempts."""

    def __init__(self, directory, port):
        self.directory, self.port = directory, port
        self.log = os.path.join(directory, "mosquitto.log")
        self.conf = os.path.join(directory, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write(f"""per_listener_settings false
allow_anonymous false
password_file {directory}/passwords
persistence false
user {os.environ.get("USER") or "root"}
log_dest file {self.log}
log_type all
listener {port} 127.0.0.1
cafile {directory}/ca.pem
certfile {directory}/server.pem
keyfile {directory}/server.key
""")
        self.process = None

    def start(self):
        self.process = start(["mosquitto", "-c", self.conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ok = wait_for(lambda: self.accepts(), 10)
        if not ok:
            raise SystemExit("mosquitto did not start: " + open(self.log).read()[-2000:])

    def accepts(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)

    def connections(self):
        with open(self.log, errors="replace") as f:
            return sum(1 for line in f if "New connection from" in line)


class Subscriber:
    """mosquitto_sub printing `retain qos topic payload` per message."""

    def __init__(self, directory, port, name, topics=("gestured/#", "homeassistant/#")):
        self.path = os.path.join(directory, f"sub-{name}.txt")
        args = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "--cafile", os.path.join(directory, "ca.pem"),
                "-u", "hass", "-P", "hass-secret", "-V", "mqttv5", "--retain-as-published", "-q", "1",
                "-F", "%r %q %t %p", "-i", f"test-{name}"]
        for topic in topics:
            args += ["-t", topic]
        self.out = open(self.path, "w")
        self.process = start(args, stdout=self.out, stderr=subprocess.STDOUT)

    def messages(self):
        result = []
        with open(self.path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                parts = line.split(" ", 3)
                if len(parts) == 4:
                    result.append({"retain": parts[0] == "1", "qos": int(parts[1]), "topic": parts[2], "payload": parts[3]})
        return result

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        self.out.close()


def make_pki(directory):
    """A CA, the broker's certificate for 127.0.0.1 and localhost, and a second, wrong CA."""
    def openssl(*args):
        run(["openssl", *args], cwd=directory)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=gestured test CA",
            "-keyout", "ca.key", "-out", "ca.pem")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=some other CA",
            "-keyout", "wrong-ca.key", "-out", "wrong-ca.pem")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
    with open(os.path.join(directory, "san.ext"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
            "-extfile", "san.ext", "-out", "server.pem")
    passwords = os.path.join(directory, "passwords")
    run(["mosquitto_passwd", "-c", "-b", passwords, "kiosk", "kiosk-secret"])
    run(["mosquitto_passwd", "-b", passwords, "hass", "hass-secret"])
    for name in os.listdir(directory):
        os.chmod(os.path.join(directory, name), 0o644)


def write_credentials(directory, name, username, password):
    path = os.path.join(directory, name)
    os.makedirs(path, exist_ok=True)
    for key, value in (("mqtt-username", username), ("mqtt-password", password)):
        with open(os.path.join(path, key), "w") as f:
            f.write(value + "\n")
        os.chmod(os.path.join(path, key), 0o644)
    return path


def write_settings(directory, name, port, ca="ca.pem", metrics=None, queue=1000, node=NODE, states=None):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("{\n"
                f'  broker: {{ host: "127.0.0.1", port: {port}, keepalive: 5, tls: {{ ca: "{directory}/{ca}" }} }},\n'
                f'  topics: {{ prefix: "gestured", node: "{node}" }},\n'
                "  health: { interval: 5 },\n"
                f"  queue: {{ limit: {queue} }},\n"
                + (f"  events: {{ gestureStates: {json.dumps(states)} }},\n" if states else "")
                + (f'  metrics: {{ directory: "{metrics}", interval: 1 }},\n' if metrics else "  metrics: null,\n")
                + "}\n")
    os.chmod(path, 0o644)
    return path


class Sidecar:
    def __init__(self, directory, name, settings, socket_path, config, credentials, as_nobody=False):
        self.log = os.path.join(directory, f"sidecar-{name}.log")
        env = dict(os.environ, CREDENTIALS_DIRECTORY=credentials)
        args = [SIDECAR, "--config", config, "--mqtt-config", settings, "--socket", socket_path]
        if as_nobody:
            args = ["setpriv", "--reuid=65534", "--regid=65534", "--groups=65534", "--inh-caps=-all"] + args
        self.out = open(self.log, "w")
        self.process = start(args, env=env, stdout=self.out, stderr=subprocess.STDOUT)

    def lines(self):
        with open(self.log, errors="replace") as f:
            return f.read().splitlines()

    def rss_kib(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.out.close()


def expected_events(config):
    """The messages the replay should give, from `gestured replay`'s own output."""
    output = run([GESTURED, "replay", "--config", config, RECORDING]).stdout
    events = [json.loads(line) for line in output.splitlines()]
    return events


def daemon_identity(path):
    """The daemon's start id (its hello) and its layout's hash (its status), read as a plain
    client that never subscribes (so `--wait-clients` does not count it)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(10)
        client.connect(path)
        reader = client.makefile("rb")
        hello = json.loads(reader.readline())
        client.sendall(b'{"type":"status","id":"identity"}\n')
        status = json.loads(reader.readline())
    return hello, status


def payload_for(event, start_id):
    if event["type"] == "gesture":
        event_type = event["recognizer"] if event["state"] == "recognized" else f'{event["recognizer"]}_{event["state"]}'
        payload = {"event_type": event_type, "eventId": f"{start_id}-{event['seq']}", "seq": event["seq"], "time": event["time"],
                   "view": event["view"], "recognizer": event["recognizer"], "kind": event["kind"], "state": event["state"]}
        for key in ("x", "y", "taps", "translationX", "translationY", "scale", "rotation", "direction"):
            if key in event:
                payload[key] = event[key]
    else:
        payload = {"event_type": event["event"], "eventId": f"{start_id}-{event['seq']}", "seq": event["seq"],
                   "time": event["time"], "view": event["view"], "event": event["event"], "touch": event["touch"]}
    return payload


def parse_metrics(text):
    """Prometheus text format 0.0.4: every sample's family has HELP and TYPE before it."""
    samples, types = {}, {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
            continue
        if line.startswith("#") or not line:
            continue
        name_labels, value = line.rsplit(" ", 1)
        name = name_labels.split("{", 1)[0]
        family = name
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix) and name[: -len(suffix)] in types:
                family = name[: -len(suffix)]
        if family not in types:
            raise ValueError(f"line {number}: {name} has no # TYPE before it")
        samples[name_labels] = float(value)
    return samples


def main():
    for program in (GESTURED, SIDECAR):
        if not os.access(program, os.X_OK):
            raise SystemExit(f"{program} is not built (swift build)")
    directory = tempfile.mkdtemp(prefix="gestured-mqtt-test.")
    os.chmod(directory, 0o755)
    try:
        test(directory)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        if failures:
            print(f"kept {directory} for a look", flush=True)
        else:
            shutil.rmtree(directory, ignore_errors=True)
    if failures:
        print(f"{len(failures)} checks failed", flush=True)
        sys.exit(1)
    print("all checks passed", flush=True)


def test(directory):
    make_pki(directory)
    port = free_port()
    broker = Broker(directory, port)
    broker.start()
    config = os.path.join(directory, "gestured.json5")
    with open(config, "w") as f:
        # Members of nogroup may connect; only root (and the user gestured runs as) may control.
        f.write('{ screen: { width: 1920, height: 1080 }, socket: { group: "nogroup" }, '
                f'layout: "{LAYOUT}" }}\n')
    os.chmod(config, 0o644)
    metrics = os.path.join(directory, "metrics")
    os.makedirs(metrics)
    credentials = write_credentials(directory, "credentials", "kiosk", "kiosk-secret")
    settings = write_settings(directory, "mqtt.json5", port, metrics=metrics)

    # 1. The replay, exactly.
    subscriber = Subscriber(directory, port, "replay")
    time.sleep(0.5)
    # What an earlier run announced for a view its layout no longer has (an entity and a
    # trigger), retained on the broker: the sidecar must remove both (checked in 2.).
    stale = [f"homeassistant/event/{NODE}/gone/config", f"homeassistant/device_automation/{NODE}/gone_touchUpInside/config"]
    for topic in stale:
        run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "--cafile", os.path.join(directory, "ca.pem"),
             "-u", "hass", "-P", "hass-secret", "-q", "1", "-r", "-t", topic, "-m", '{"name":"gone"}'])
    daemon_socket = os.path.join(directory, "gestured.sock")
    daemon = start([GESTURED, "replay", "--config", config, "--socket", daemon_socket, "--wait-clients", "1", RECORDING],
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(lambda: os.path.exists(daemon_socket), 10)
    hello, status = daemon_identity(daemon_socket)
    start_id, layout_hash = hello.get("startId"), status.get("layout", {}).get("hash")
    hexadecimal = lambda value: isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value)
    check(hexadecimal(start_id) and status.get("startId") == start_id and hexadecimal(layout_hash),
          f"the daemon's hello and status give its start id and the layout's hash ({start_id}, {layout_hash})")
    sidecar = Sidecar(directory, "replay", settings, daemon_socket, config, credentials)
    events = expected_events(config)
    published = [e for e in events if (e["type"] == "gesture" and e["state"] in ("recognized", "began", "ended", "cancelled"))
                 or (e["type"] == "control" and e["event"] == "touchUpInside")]
    expected = [{"retain": False, "qos": 1, "topic": f"gestured/{NODE}/view/{e['view']}", "payload": payload_for(e, start_id)}
                for e in published]
    check(len(expected) >= 10 and {e["type"] for e in published} == {"gesture", "control"}
          and {e.get("kind") for e in published} >= {"tap", "pan"},
          f"the recording has taps, pans and control events to publish ({len(expected)} messages)")

    def view_messages():
        return [m for m in subscriber.messages() if m["topic"].startswith(f"gestured/{NODE}/view/")]
    wait_for(lambda: len(view_messages()) >= len(expected), 30)
    daemon.wait(30)
    time.sleep(1)
    got = view_messages()
    decoded = []
    for message in got:
        try:
            decoded.append(dict(message, payload=json.loads(message["payload"])))
        except ValueError:
            decoded.append(message)
    check(decoded == expected, f"the view topics carry exactly the {len(expected)} expected messages, in order "
          f"(got {len(decoded)}; first difference: "
          f"{next(((a, b) for a, b in zip(decoded, expected) if a != b), None)})")
    check(all(list(d["payload"].keys()) == list(e["payload"].keys()) for d, e in zip(decoded, expected)
              if isinstance(d["payload"], dict)), "payload keys come in the documented order")
    messages = subscriber.messages()
    availability = [m for m in messages if m["topic"] == f"gestured/{NODE}/availability"]
    check(availability[:1] == [{"retain": True, "qos": 1, "topic": f"gestured/{NODE}/availability", "payload": "online"}],
          f"availability online, retained, QoS 1 ({availability[:1]})")
    layouts = [m for m in messages if m["topic"] == f"gestured/{NODE}/layout"]
    check(bool(layouts) and layouts[-1]["retain"] and json.loads(layouts[-1]["payload"])["revision"] == 1
          and json.loads(layouts[-1]["payload"])["hash"] == layout_hash,
          f"the layout is retained with its revision and the daemon's hash of it ({layouts[-1:]})")
    healths = [m for m in messages if m["topic"] == f"gestured/{NODE}/health"]
    health = json.loads(healths[-1]["payload"]) if healths else {}
    check(bool(healths) and healths[-1]["retain"] and health.get("device", {}).get("source") == "replay"
          and isinstance(health.get("touchesPerMinute"), int) and isinstance(health.get("uptime"), int)
          and "dropped" in health, f"health is retained with device, uptime, rates and drops ({health})")

    # 2. Home Assistant discovery.
    discovery = {m["topic"]: m for m in messages if m["topic"].startswith("homeassistant/") and m["topic"] not in stale}
    removed = {t: [m for m in messages if m["topic"] == t] for t in stale}
    check(all(ms and ms[-1]["payload"] == "" and ms[-1]["retain"] for ms in removed.values())
          and not any(m["payload"] == "" for m in discovery.values()),
          f"the retained entity and trigger of a view that left the layout are removed (empty retained payloads), "
          f"no other ({ {t: [m['payload'] for m in ms] for t, ms in removed.items()} })")
    event_configs = {t: json.loads(m["payload"]) for t, m in discovery.items() if t.startswith("homeassistant/event/")}
    triggers = {t: json.loads(m["payload"]) for t, m in discovery.items() if t.startswith("homeassistant/device_automation/")}
    sensors = {t: json.loads(m["payload"]) for t, m in discovery.items() if t.startswith("homeassistant/sensor/")}
    check(all(m["retain"] and m["qos"] == 1 for m in discovery.values()), "discovery is retained, QoS 1")
    views_published = {e["view"] for e in published}
    check({c["state_topic"].rsplit("/", 1)[1] for c in event_configs.values()} >= views_published,
          f"an event entity for every view that published ({sorted(views_published)})")
    string, strings, dictionary = str, list, dict

    def typed(config, fields):
        return all(isinstance(config.get(k), t) and config.get(k) != "" for k, t in fields.items())
    check(event_configs and all(typed(c, {"state_topic": string, "event_types": strings, "name": string, "unique_id": string,
                                          "availability_topic": string, "device": dictionary})
                                and all(isinstance(x, str) for x in c["event_types"])
                                and isinstance(c["device"].get("identifiers"), list) for c in event_configs.values()),
          "event entities: state_topic, event_types (strings), name, unique_id, availability_topic, device.identifiers")
    all_types = {(c["state_topic"], t) for c in event_configs.values() for t in c["event_types"]}
    check(all((f"gestured/{NODE}/view/{e['view']}", p["event_type"]) in all_types for e, p in
              ((e, payload_for(e, 0)) for e in published)), "every published event_type is in its entity's event_types")
    check(triggers and all(typed(c, {"automation_type": string, "topic": string, "type": string, "subtype": string,
                                     "payload": string, "device": dictionary}) and c["automation_type"] == "trigger"
                           and c["qos"] == 1 for c in triggers.values()),
          f"{len(triggers)} device triggers: automation_type trigger, topic, type, subtype, payload, device")
    check(len({(c["type"], c["subtype"]) for c in triggers.values()}) == len(triggers), "trigger type+subtype unique per device")
    check(sensors and all(typed(c, {"state_topic": string, "value_template": string, "unique_id": string,
                                    "device": dictionary}) for c in sensors.values()), "health sensors")
    # Home Assistant announcing itself gets discovery again.
    def entity_configs():
        return [m for m in subscriber.messages() if m["topic"].startswith("homeassistant/event/") and m["topic"] not in stale]
    before = len(entity_configs())
    run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "--cafile", os.path.join(directory, "ca.pem"),
         "-u", "hass", "-P", "hass-secret", "-t", "homeassistant/status", "-m", "online"])
    check(before > 0 and wait_for(lambda: len(entity_configs()) >= 2 * before, 10),
          "discovery sent again when homeassistant/status says online")

    # 3. The metrics file: node-exporter's parser, and the replay's counts.
    prom = os.path.join(metrics, "gestured.prom")
    time.sleep(2)
    text = open(prom).read() if os.path.exists(prom) else ""
    try:
        samples = parse_metrics(text)
    except ValueError as error:
        samples = {}
        check(False, f"metrics parse: {error}")
    gestures = {}
    for e in events:
        if e["type"] == "gesture":
            key = f'gestured_gestures_total{{node="{NODE}",view="{e["view"]}",recognizer="{e["recognizer"]}",kind="{e["kind"]}",state="{e["state"]}"}}'
            gestures[key] = gestures.get(key, 0) + 1
    check(gestures and all(samples.get(k) == v for k, v in gestures.items()),
          f"gestured_gestures_total matches the replay's {sum(gestures.values())} gesture events")
    controls = sum(1 for e in events if e["type"] == "control")
    check(sum(v for k, v in samples.items() if k.startswith("gestured_controls_total")) == controls,
          f"gestured_controls_total sums to the replay's {controls} control events")
    touches = sum(1 for e in events if e["type"] == "touches" and e["phase"] == "began"
                  for t in e["touches"] if t["phase"] == "began")
    check(sum(v for k, v in samples.items() if k.startswith("gestured_touches_total")) == touches,
          f"gestured_touches_total sums to the replay's {touches} touches")
    exporter_port = free_port()
    exporter = start(["prometheus-node-exporter", f"--web.listen-address=127.0.0.1:{exporter_port}",
                      "--collector.disable-defaults", "--collector.textfile",
                      f"--collector.textfile.directory={metrics}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def scrape():
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{exporter_port}/metrics", timeout=2).read().decode()
        except OSError:
            return None
    wait_for(lambda: scrape() is not None, 10)
    scraped = scrape() or ""
    check("node_textfile_scrape_error 0" in scraped and f'gestured_gestures_total{{kind="tap",node="{NODE}"' in scraped,
          "node-exporter's textfile collector reads the file without a scrape error")
    exporter.terminate()
    exporter.wait()

    # 4. The last will.
    sidecar.stop(signal.SIGKILL)
    check(wait_for(lambda: [m["payload"] for m in subscriber.messages()
                            if m["topic"] == f"gestured/{NODE}/availability"][-1:] == ["offline"], 10),
          "kill -9: the broker publishes availability offline (the last will)")
    daemon2_socket = os.path.join(directory, "gestured2.sock")
    # --wait-clients 3: the daemon serves requests and waits for a third subscriber that never
    # comes (the two sidecars below are the first two).
    daemon2 = start([GESTURED, "replay", "--config", config, "--socket", daemon2_socket, "--wait-clients", "3", RECORDING],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(daemon2_socket), 10)
    sidecar = Sidecar(directory, "again", settings, daemon2_socket, config, credentials)
    check(wait_for(lambda: [m["payload"] for m in subscriber.messages()
                            if m["topic"] == f"gestured/{NODE}/availability"][-1:] == ["online"], 10),
          "back: availability online again")

    # 7. Commands: root may control; the result comes back on command/result.
    results = Subscriber(directory, port, "results", topics=(f"gestured/{NODE}/command/result", "gestured/nobody/command/result"))
    time.sleep(0.5)

    def command(node, payload):
        run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "--cafile", os.path.join(directory, "ca.pem"),
             "-u", "hass", "-P", "hass-secret", "-q", "1", "-t", f"gestured/{node}/command", "-m", payload])
    command(NODE, '{"type":"view.update","id":"hide-1","view":"share","set":{"hidden":true}}')
    command(NODE, '{"type":"subscribe","id":2}')
    wait_for(lambda: len(results.messages()) >= 2, 10)
    answers = [json.loads(m["payload"]) for m in results.messages()]
    check(len(answers) >= 1 and answers[0].get("re") == "hide-1" and answers[0].get("ok") is True
          and answers[0].get("reply", {}).get("revision") == 2, f"root's view.update is applied ({answers[:1]})")
    check(len(answers) >= 2 and answers[1].get("ok") is False and answers[1]["error"]["code"] == "bad_command",
          f"a request that is not a command is refused by the sidecar ({answers[1:2]})")
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        check(False, "the access-rule check needs root and setpriv, to run a sidecar as nobody")
    else:
        nobody_settings = write_settings(directory, "mqtt-nobody.json5", port, node="nobody")
        nobody = Sidecar(directory, "nobody", nobody_settings, daemon2_socket, config, credentials, as_nobody=True)
        wait_for(lambda: any("connected to the broker" in l for l in nobody.lines()), 10)
        time.sleep(1)
        command("nobody", '{"type":"reload","id":3}')
        wait_for(lambda: len(results.messages()) >= 3, 10)
        answers = [json.loads(m["payload"]) for m in results.messages()]
        refused = answers[2] if len(answers) >= 3 else {}
        check(refused.get("re") == 3 and refused.get("ok") is False
              and refused.get("reply", {}).get("error", {}).get("code") == "forbidden",
              f"nobody's reload is refused by the daemon's access rules ({refused})")
        check(any("the daemon refused a command from MQTT" in l and "forbidden" in l for l in nobody.lines()),
              "the refusal is logged")
        nobody.stop()
    results.stop()

    # 5. The broker stopped: bounded memory, drops counted, reconnection. A replay in real time
    #    feeds events while the broker is away; the queue holds 20.
    sidecar.stop()
    daemon2.terminate()
    daemon2.wait(10)
    # Pans' changed states too: a few hundred messages for a queue of 20.
    small = write_settings(directory, "mqtt-small.json5", port, metrics=metrics, queue=20,
                           states=["recognized", "began", "changed", "ended", "cancelled"])
    daemon3_socket = os.path.join(directory, "gestured3.sock")
    daemon3 = start([GESTURED, "replay", "--config", config, "--socket", daemon3_socket, "--wait-clients", "2",
                     "--realtime", RECORDING], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(daemon3_socket), 10)
    sidecar = Sidecar(directory, "outage", small, daemon3_socket, config, credentials)
    wait_for(lambda: any("connected to the broker" in l for l in sidecar.lines()), 10)
    subscriber.stop()
    broker.stop()
    rss_before = sidecar.rss_kib()
    # The second client the replay waits for: a plain subscriber on the socket.
    feeder = socket.socket(socket.AF_UNIX)
    feeder.connect(daemon3_socket)
    feeder.sendall(b'{"type":"subscribe","kinds":["gesture"]}\n')
    time.sleep(OUTAGE)
    rss_after = sidecar.rss_kib()
    daemon3.wait(60)
    feeder.close()
    text = open(prom).read()
    samples = parse_metrics(text)
    dropped = samples.get(f'gestured_mqtt_queue_dropped_total{{node="{NODE}"}}', 0)
    check(dropped > 0 and samples.get(f'gestured_mqtt_queue_messages{{node="{NODE}"}}') == 20,
          f"while the broker is away the queue is full at 20 and drops are counted ({dropped:.0f} dropped)")
    check(rss_before is not None and rss_after is not None and rss_after - rss_before < 2048,
          f"memory bounded over a {OUTAGE} s outage (RSS {rss_before} KiB -> {rss_after} KiB)")
    attempts_logged = [l for l in sidecar.lines() if "cannot publish to the MQTT broker" in l]
    # One line for the lost connection, one for why reconnecting fails; not one per attempt.
    check(1 <= len(attempts_logged) <= 2, f"the outage is logged once, not per attempt ({attempts_logged})")
    connections_before = broker.connections()
    broker.start()
    subscriber = Subscriber(directory, port, "after")
    check(wait_for(lambda: broker.connections() > connections_before
                   and any("connected to the broker" in l for l in sidecar.lines()[-3:]), 35),
          "the sidecar reconnects once the broker is back (back-off at most 30 s)")
    check(wait_for(lambda: any(m["topic"] == f"gestured/{NODE}/health" and json.loads(m["payload"])["dropped"]["queue"] > 0
                               for m in subscriber.messages()), 15), "health reports the drops after the outage")
    sidecar.stop()
    subscriber.stop()

    # 6. Wrong password, wrong CA: one line each, no spin.
    for name, creds, mqtt_settings, words in (
            ("password", write_credentials(directory, "bad-credentials", "kiosk", "wrong"), settings, "not authori"),
            ("ca", credentials, write_settings(directory, "mqtt-wrong-ca.json5", port, ca="wrong-ca.pem"), "certificate")):
        before = broker.connections()
        bad = Sidecar(directory, f"wrong-{name}", mqtt_settings, daemon_socket, config, creds)
        time.sleep(6)
        attempts = broker.connections() - before
        lines = [l for l in bad.lines() if "cannot publish to the MQTT broker" in l]
        bad.stop()
        check(len(lines) == 1 and words in lines[0].lower(), f"wrong {name}: one clear log line ({lines})")
        check(1 <= attempts <= 4, f"wrong {name}: no spin ({attempts} connection attempts in 6 s)")
    broker.stop()


if __name__ == "__main__":
    main()
