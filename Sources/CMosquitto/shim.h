/* libmosquitto (Debian's libmosquitto-dev, 2.0.x): the MQTT client of gestured-mqtt
 * (docs/fleet.md). Driven from gestured-mqtt's own event loop on its one thread:
 * mosquitto_loop_read/write/misc on mosquitto_socket(), never mosquitto_loop_start. */
#include <mosquitto.h>
