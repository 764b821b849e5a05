/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The PE/COFF layout (Microsoft, "PE Format"), written once for every
 * program that reads or writes an image: the core's parser (pe.c), the
 * host CLI's section adder and the shell's SHIM_LOCK context. Offsets are
 * in bytes from the start of the structure each group names.
 */
#ifndef LOCKSHIM_PE_FORMAT_H
#define LOCKSHIM_PE_FORMAT_H

/* The DOS header */
#define DOS_MAGIC         0x5a4d /* "MZ" */
#define DOS_LFANEW_OFFSET 0x3c

/* The signature at e_lfanew, then the COFF header */
#define PE_SIGNATURE            0x00004550 /* "PE\0\0" */
#define PE_SIGNATURE_SIZE       4
#define COFF_HEADER_SIZE        20
#define COFF_NUMBER_OF_SECTIONS 2
#define COFF_SYMBOL_TABLE       8
#define COFF_NUMBER_OF_SYMBOLS  12
#define COFF_OPT_HEADER_SIZE    16
#define MACHINE_X86_64          0x8664

/* The PE32+ optional header */
#define PE32PLUS_MAGIC          0x20b
#define OPT_SIZE_OF_INIT_DATA   8
#define OPT_ENTRY_POINT         16
#define OPT_IMAGE_BASE          24
#define OPT_SECTION_ALIGNMENT   32
#define OPT_FILE_ALIGNMENT      36
#define OPT_SIZE_OF_IMAGE       56
#define OPT_SIZE_OF_HEADERS     60
#define OPT_CHECKSUM            64
#define OPT_SUBSYSTEM           68
#define OPT_DLL_CHARACTERISTICS 70
#define OPT_NUM_RVA_AND_SIZES   108
#define OPT_DATA_DIRECTORY      112 /* the data directories, DATA_DIR_ENTRY_SIZE each */

/* The data directories: their indexes and size */
#define DATA_DIR_SECURITY   4
#define DATA_DIR_BASERELOC  5
#define DATA_DIR_ENTRY_SIZE 8

/* A section header */
#define SECTION_HEADER_SIZE     40
#define SECTION_NAME_SIZE       8
#define SECTION_VIRTUAL_SIZE    8
#define SECTION_VIRTUAL_ADDRESS 12
#define SECTION_RAW_SIZE        16
#define SECTION_RAW_OFFSET      20
#define SECTION_CHARACTERISTICS 36

#endif
