// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim test module: does nothing but say that it was loaded.
 *
 * kernel/build.sh compiles this file once per signer slot, as
 * lstest_<slot>.ko, so that each copy has its own module name and can be
 * loaded after another one; the tests sign each copy with a different key.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init lstest_init(void)
{
	pr_info("%s: loaded\n", KBUILD_MODNAME);
	return 0;
}
module_init(lstest_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lockshim test module");
