// SPDX-License-Identifier: GPL-2.0
/* KFD properties files: "key value" lines. Pure. */
#include "kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool pa_kfd_prop(const char *text, const char *key, uint64_t *value)
{
	size_t n = strlen(key);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char *end;

		if (strncmp(line, key, n) || line[n] != ' ')
			continue;
		errno = 0;
		*value = strtoull(line + n + 1, &end, 10);
		return !errno && end != line + n + 1 &&
		       (*end == '\n' || *end == '\0');
	}
	return false;
}
