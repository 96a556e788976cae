// SPDX-License-Identifier: GPL-2.0
#include "fileio.h"
#include "gunzip.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int pa_read_file(const char *path, size_t max, char **text, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	size_t n = 0, cap = 0;
	char *buf = NULL, *v;
	int err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			v = realloc(buf, cap + 1);
			if (!v) {
				err = -ENOMEM;
				break;
			}
			buf = v;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r ? -errno : 0;
			break;
		}
		n += (size_t)r;
		if (n > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int pa_read_file_gz(const char *path, size_t max, char **text, size_t *len,
		    char *why, size_t whylen)
{
	char *raw, *plain;
	size_t n;
	int err = pa_read_file(path, max, &raw, &n);

	snprintf(why, whylen, "%s", "");
	if (err || !pa_is_gzip(raw, n)) {
		if (!err) {
			*text = raw;
			*len = n;
		}
		return err;
	}
	err = pa_gunzip(raw, n, max, &plain, len, why, whylen);
	free(raw);
	if (!err)
		*text = plain;
	return err;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

int pa_write_atomic(const char *path, const char *data, size_t len)
{
	char dbuf[PATH_MAX], bbuf[PATH_MAX], tmp[PATH_MAX];
	const char *dir;
	int fd, err;

	if (snprintf(dbuf, sizeof(dbuf), "%s", path) >= (int)sizeof(dbuf) ||
	    snprintf(bbuf, sizeof(bbuf), "%s", path) >= (int)sizeof(bbuf))
		return -ENAMETOOLONG;
	/* dirname() and basename() may modify their argument: copies. */
	dir = dirname(dbuf);
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir,
		     basename(bbuf)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	err = write_all(fd, data, len);
	if (!err && fchmod(fd, 0644))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	return sync_dir(dir);
}

static bool snapshot_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' &&
	       ((n > 5 && !strcmp(name + n - 5, ".json")) ||
		(n > 8 && !strcmp(name + n - 8, ".json.gz")));
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pa_list_snapshots(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t cap = 0;
	char **v = NULL;
	int err = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while (!err && (ent = readdir(d))) {
		char **w;

		if (!snapshot_name(ent->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			w = realloc(v, cap * sizeof(*v));
			if (!w) {
				err = -ENOMEM;
				break;
			}
			v = w;
		}
		v[*n] = strdup(ent->d_name);
		if (!v[*n])
			err = -ENOMEM;
		else
			(*n)++;
	}
	closedir(d);
	if (err) {
		pa_names_free(v, *n);
		*n = 0;
		return err;
	}
	if (v)
		qsort(v, *n, sizeof(*v), name_cmp);
	*names = v;
	return 0;
}

void pa_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
