/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcieaudit-cli monitor: joins the module's "monitor" multicast group and
 * prints each event as it comes (monitor_event.h), like ip monitor.
 */
#ifndef PA_MONITOR_H
#define PA_MONITOR_H

#include <stdbool.h>

/*
 * Runs until SIGINT or SIGTERM (PA_EXIT_OK) or until the module is
 * unloaded (PA_EXIT_NO_MODULE, with a message). Lost events (ENOBUFS,
 * a gap in the sequence) print a resync line and monitoring goes on.
 */
int pa_monitor_run(bool json);

#endif /* PA_MONITOR_H */
