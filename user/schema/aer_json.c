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

/* {"correctable": {"RxErr": 2, ...}, "nonfatal": {...}, "fatal": {...}},
 * each in the kernel's order. */
static json_object *types_object(const struct pa_aer *aer)
{
	json_object *obj = json_object_new_object();

	for (unsigned int sev = 0; sev < PA_AER_NSEV; sev++) {
		json_object *one = json_object_new_object();

		for (size_t i = 0; i < aer->ntypes; i++)
			if (aer->types[i].severity == sev)
				json_object_object_add(one, aer->types[i].name,
						       counter(aer->types[i].count));
		json_object_object_add(obj, pa_aer_severity_name(sev), one);
	}
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
	if (aer->ntypes)
		json_object_object_add(obj, "types", types_object(aer));
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

/* "types", absent in snapshots before it: each severity an object of
 * counts; names this CLI does not know are kept and counted. */
static int parse_types(json_object *types, struct pa_aer *aer,
		       const char **problem)
{
	if (!json_object_is_type(types, json_type_object)) {
		*problem = "aer.types: expected an object";
		return -EINVAL;
	}
	for (unsigned int sev = 0; sev < PA_AER_NSEV; sev++) {
		json_object *one;

		if (!json_object_object_get_ex(types, pa_aer_severity_name(sev), &one))
			continue;
		if (!json_object_is_type(one, json_type_object)) {
			*problem = "aer.types: expected an object of counts per severity";
			return -EINVAL;
		}
		json_object_object_foreach(one, name, val) {
			struct pa_aer_type *t;
			size_t nlen = strlen(name);

			errno = 0;
			if (!json_object_is_type(val, json_type_int) ||
			    json_object_get_int64(val) < 0) {
				*problem = "aer.types: expected a count for each name";
				return -EINVAL;
			}
			if (!nlen || aer->ntypes >= PA_AER_MAX_TYPES ||
			    nlen >= sizeof(t->name)) {
				*problem = "aer.types: an empty or too long name, or too many";
				return -EINVAL;
			}
			t = &aer->types[aer->ntypes++];
			memcpy(t->name, name, nlen + 1);
			t->severity = (uint8_t)sev;
			t->count = json_object_get_uint64(val);
			t->known = pa_aer_name_known(sev, name);
			if (!t->known)
				aer->unknown_names++;
		}
	}
	return 0;
}

int pa_aer_json_parse(json_object *v, struct pa_aer *aer, const char **problem)
{
	json_object *state, *reason, *rp, *types;
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
	if (json_object_object_get_ex(v, "types", &types) && types &&
	    parse_types(types, aer, problem))
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
