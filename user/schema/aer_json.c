// SPDX-License-Identifier: GPL-2.0
#include "aer_json.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "aer.h"

static json_object *counter(uint64_t v)
{
	return json_object_new_uint64(v);
}

static json_object *rootport_object(const struct pa_aer *aer)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "correctable", counter(aer->rp_cor));
	json_object_object_add(obj, "nonfatal", counter(aer->rp_nonfatal));
	json_object_object_add(obj, "fatal", counter(aer->rp_fatal));
	return obj;
}

json_object *pa_aer_json(const struct pa_aer *aer)
{
	json_object *obj;

	if (aer->state != PA_AER_KNOWN && aer->state != PA_AER_UNKNOWN)
		return NULL;
	obj = json_object_new_object();
	if (aer->state == PA_AER_UNKNOWN) {
		json_object_object_add(obj, "state", json_object_new_string("unknown"));
		json_object_object_add(obj, "reason", json_object_new_string(aer->reason));
		return obj;
	}
	json_object_object_add(obj, "state", json_object_new_string("known"));
	json_object_object_add(obj, "correctable", counter(aer->cor));
	json_object_object_add(obj, "nonfatal", counter(aer->nonfatal));
	json_object_object_add(obj, "fatal", counter(aer->fatal));
	json_object_object_add(obj, "rootport",
			       aer->has_rootport ? rootport_object(aer) : NULL);
	return obj;
}

/* A required counter: a non-negative integer. */
static int get_counter(json_object *obj, const char *key, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -EINVAL;
	errno = 0;
	if (json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return errno ? -EINVAL : 0;
}

static int parse_counters(json_object *obj, uint64_t *cor, uint64_t *nonfatal,
			  uint64_t *fatal, const char **problem,
			  const char *const what[3])
{
	if (get_counter(obj, "correctable", cor))
		*problem = what[0];
	else if (get_counter(obj, "nonfatal", nonfatal))
		*problem = what[1];
	else if (get_counter(obj, "fatal", fatal))
		*problem = what[2];
	else
		return 0;
	return -EINVAL;
}

static const char *const dev_problems[3] = {
	"aer.correctable: expected a count",
	"aer.nonfatal: expected a count",
	"aer.fatal: expected a count",
};

static const char *const rp_problems[3] = {
	"aer.rootport.correctable: expected a count",
	"aer.rootport.nonfatal: expected a count",
	"aer.rootport.fatal: expected a count",
};

int pa_aer_json_parse(json_object *v, struct pa_aer *aer, const char **problem)
{
	json_object *state, *reason, *rp;
	const char *s;

	*aer = (struct pa_aer){ 0 };
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_object)) {
		*problem = "aer: expected an object or null";
		return -EINVAL;
	}
	if (!json_object_object_get_ex(v, "state", &state) ||
	    !json_object_is_type(state, json_type_string)) {
		*problem = "aer.state: expected \"known\" or \"unknown\"";
		return -EINVAL;
	}
	s = json_object_get_string(state);
	if (!strcmp(s, "unknown")) {
		if (!json_object_object_get_ex(v, "reason", &reason) ||
		    !json_object_is_type(reason, json_type_string)) {
			*problem = "aer.reason: expected a string";
			return -EINVAL;
		}
		pa_aer_set_unknown(aer, "%s", json_object_get_string(reason));
		return 0;
	}
	if (strcmp(s, "known")) {
		*problem = "aer.state: expected \"known\" or \"unknown\"";
		return -EINVAL;
	}
	aer->state = PA_AER_KNOWN;
	if (parse_counters(v, &aer->cor, &aer->nonfatal, &aer->fatal, problem,
			   dev_problems))
		return -EINVAL;
	if (!json_object_object_get_ex(v, "rootport", &rp) || !rp)
		return 0;
	if (!json_object_is_type(rp, json_type_object)) {
		*problem = "aer.rootport: expected an object or null";
		return -EINVAL;
	}
	aer->has_rootport = true;
	return parse_counters(rp, &aer->rp_cor, &aer->rp_nonfatal,
			      &aer->rp_fatal, problem, rp_problems);
}
