/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* `lockshim status`: what lockshim decided this boot, from LockshimBootLog (status.c). */
#ifndef LOCKSHIM_STATUS_H
#define LOCKSHIM_STATUS_H

extern const char status_usage[];

int cmd_status(int argc, char **argv);

#endif
