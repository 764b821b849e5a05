/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * dbx updates a first stage would not survive. For every first stage the
 * firmware allows through db (lockshim, shim, a UKI started directly), the
 * db CAs its signatures chain to, as the firmware sees them (a nested
 * signature is not), and whether a dbx update revokes them: the one given
 * (--dbx-update, --dbx-replace), or a CA revocation recorded in
 * certs/dbx-revocations.csv (published by Microsoft, or the what-if of one
 * not published yet; each names its CA by the SHA-256 of its DER, as
 * ca_names.c does). EDK2 refuses an image when any signature it sees
 * chains to dbx, so a first stage signed under a revoked CA and a kept one
 * dies too: the warning says which.
 */
#ifndef LOCKSHIM_DBX_WARNING_H
#define LOCKSHIM_DBX_WARNING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot_chain.h"
#include "what_if.h"

/*
 * The warnings for the first stages of @chains (@n options): with @w's dbx
 * updates, those of @today's chains that @after's dbx revokes; then, on
 * @after (today when @w changes nothing), each recorded revocation. As
 * "warning: " lines, or with @json the "dbx_warnings" array (after a
 * comma). Returns 0, or -1 out of memory, said.
 */
int dbx_warnings_print(const struct chain_files *files, const struct chain *chains, size_t n,
		       const struct machine_state *today, const struct machine_state *after,
		       const struct what_if *w, bool json);

#endif
