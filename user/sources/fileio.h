/* SPDX-License-Identifier: GPL-2.0 */
/* Whole files in and out: policies and snapshots in, check's outputs out. */
#ifndef PA_FILEIO_H
#define PA_FILEIO_H

#include <stddef.h>

/*
 * Reads path ("-" for standard input) whole, NUL-terminated. -EFBIG when it
 * holds more than max bytes; another negative errno when it cannot be read.
 */
int pa_read_file(const char *path, size_t max, char **text, size_t *len);

/*
 * pa_read_file(), and when the file is gzip (by its magic bytes, not its
 * name) what it inflates to; max bounds both. -EBADMSG for gzip data that
 * is corrupt or cut short: why (never NULL) then says what zlib found.
 */
int pa_read_file_gz(const char *path, size_t max, char **text, size_t *len,
		    char *why, size_t whylen);

/*
 * Replaces path with data, atomically: a temporary dotfile in the same
 * directory (collectors skip dotfiles), fsync, rename over path, fsync of
 * the directory. Readers see the old file or the new one, never a part.
 * The new file is mode 0644. 0 or a negative errno; on failure path is
 * untouched and the temporary file gone.
 */
int pa_write_atomic(const char *path, const char *data, size_t len);

/*
 * The snapshots of a directory (fleet DIR): the names (not paths) of its
 * *.json and *.json.gz files, dotfiles left out, sorted. 0 or a negative
 * errno; pa_names_free() frees them.
 */
int pa_list_snapshots(const char *dir, char ***names, size_t *n);
void pa_names_free(char **names, size_t n);

#endif /* PA_FILEIO_H */
