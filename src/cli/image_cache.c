// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "image_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

#define MAX_CACHED 512

struct cached_file {
	char *path;
	uint8_t *data;
	size_t size;
	struct image_digests digests;
};

struct image_cache {
	size_t n;
	size_t total; /* the bytes of every file held */
	struct cached_file file[MAX_CACHED];
};

struct image_cache *image_cache_new(void)
{
	return calloc(1, sizeof(struct image_cache));
}

void image_cache_free(struct image_cache *cache)
{
	for (size_t i = 0; cache && i < cache->n; i++) {
		free(cache->file[i].path);
		free(cache->file[i].data);
	}
	free(cache);
}

struct image_digests *image_cache_digests(struct image_cache *cache, const uint8_t *data)
{
	for (size_t i = 0; i < cache->n; i++)
		if (cache->file[i].data == data)
			return &cache->file[i].digests;
	return NULL;
}

int image_cache_load(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size, char *why, size_t why_size)
{
	size_t left = IMAGE_CACHE_TOTAL_MAX - cache->total;
	struct cached_file *f;
	int r;

	for (size_t i = 0; i < cache->n; i++)
		if (strcmp(cache->file[i].path, path) == 0) {
			*data = cache->file[i].data;
			*size = cache->file[i].size;
			return 1;
		}
	if (cache->n == MAX_CACHED) {
		snprintf(why, why_size, "more than %d files to check", MAX_CACHED);
		return -1;
	}
	f = &cache->file[cache->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	r = read_file_at_most(path, left < IMAGE_CACHE_FILE_MAX ? left : IMAGE_CACHE_FILE_MAX, true,
			      &f->data, &f->size, why, why_size);
	if (r <= 0) {
		free(f->path);
		return r;
	}
	cache->total += f->size;
	cache->n++;
	*data = f->data;
	*size = f->size;
	return 1;
}

int image_cache_read(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size)
{
	char why[160];
	int r = image_cache_load(cache, path, data, size, why, sizeof(why));

	if (r <= 0)
		say_error("%s: %s", path, why);
	return r > 0 ? 0 : -1;
}
