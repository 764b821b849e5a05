/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * gnu-efi's firmware pointers, which InitializeLib sets in the loader: none
 * on the host. lib/crypto/libc/ossl_rand_pool.c, which the UEFI libcrypto
 * links against, then finds no EFI_RNG_PROTOCOL, as on firmware without
 * one (verification never asks for random bytes).
 */
#include <efi.h>
#include <efilib.h>

EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;
