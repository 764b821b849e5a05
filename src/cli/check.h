/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* `lockshim check`: will this machine still boot, now and after an update (check.c). */
#ifndef LOCKSHIM_CHECK_H
#define LOCKSHIM_CHECK_H

int cmd_check(int argc, char **argv);

#endif
