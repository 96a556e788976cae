// SPDX-License-Identifier: GPL-2.0
#include "check_out.h"

#include <errno.h>
#include <json-c/json.h>

#include "bdf.h"
#include "json_out.h"

static void add(json_object *obj, const char *key, json_object *value)
{
	json_object_object_add(obj, key, value);
}

static json_object *string_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

const char *pa_check_rule_status(const struct pa_check *c, enum pa_rule_id r)
{
	enum pa_severity worst = pa_check_rule_worst(c, r);

	if (c->state[r] == PA_RULE_SKIPPED)
		return "skip";
	return worst ? pa_severity_name(worst) : "pass";
}

static json_object *finding_object(const struct pa_finding *fd)
{
	json_object *obj = json_object_new_object();
	json_object *devs = json_object_new_array();
	json_object *remedy = NULL;
	char bdf[PA_BDF_LEN];

	for (size_t i = 0; i < fd->devices.n; i++) {
		pa_bdf_format(&fd->devices.addrs[i], bdf);
		json_object_array_add(devs, json_object_new_string(bdf));
	}
	if (fd->remedy) {
		remedy = json_object_new_object();
		add(remedy, "kind", json_object_new_string(
			pa_remedy_kind_name(fd->remedy_kind)));
		add(remedy, "value", json_object_new_string(fd->remedy));
	}
	add(obj, "id", json_object_new_string(pa_rules[fd->rule].id));
	add(obj, "profile", json_object_new_string(
		pa_profile_name(pa_rules[fd->rule].profile)));
	add(obj, "severity", json_object_new_string(pa_severity_name(fd->severity)));
	add(obj, "devices", devs);
	add(obj, "message", json_object_new_string(fd->message));
	add(obj, "remedy", remedy);
	return obj;
}

static json_object *summary_object(const struct pa_check *c)
{
	json_object *obj = json_object_new_object();
	int count[PA_SEV_FAIL + 1] = { 0 }, pass = 0, skip = 0;

	for (size_t i = 0; i < c->nfindings; i++)
		count[c->findings[i].severity]++;
	for (int r = 0; r < PA_NRULES; r++) {
		skip += c->state[r] == PA_RULE_SKIPPED;
		pass += c->state[r] == PA_RULE_RAN && !pa_check_rule_worst(c, r);
	}
	add(obj, "fail", json_object_new_int(count[PA_SEV_FAIL]));
	add(obj, "warn", json_object_new_int(count[PA_SEV_WARN]));
	add(obj, "info", json_object_new_int(count[PA_SEV_INFO]));
	add(obj, "pass", json_object_new_int(pass));
	add(obj, "skip", json_object_new_int(skip));
	return obj;
}

int pa_check_json(FILE *f, const struct pa_check *c, const char *source)
{
	json_object *root = json_object_new_object();
	json_object *profiles = json_object_new_object();
	json_object *rules = json_object_new_array();
	json_object *findings = json_object_new_array();

	for (int p = 0; p < PA_NPROFILES; p++)
		if (c->profiles[p])
			add(profiles, pa_profile_name(p), json_object_new_string(
				pa_check_profile_verdict(c, p)));
	for (int r = 0; r < PA_NRULES; r++) {
		json_object *rule;

		if (c->state[r] == PA_RULE_NOT_RUN)
			continue;
		rule = json_object_new_object();
		add(rule, "id", json_object_new_string(pa_rules[r].id));
		add(rule, "profile", json_object_new_string(
			pa_profile_name(pa_rules[r].profile)));
		add(rule, "status", json_object_new_string(pa_check_rule_status(c, r)));
		add(rule, "note", string_or_null(c->note[r]));
		json_object_array_add(rules, rule);
	}
	for (size_t i = 0; i < c->nfindings; i++)
		json_object_array_add(findings, finding_object(&c->findings[i]));
	add(root, "schema_version", json_object_new_int(PA_JSON_SCHEMA_VERSION));
	add(root, "source", json_object_new_string(source));
	add(root, "verdict", json_object_new_string(
		pa_check_profile_verdict(c, PA_NPROFILES)));
	add(root, "profiles", profiles);
	add(root, "summary", summary_object(c));
	add(root, "rules", rules);
	add(root, "findings", findings);
	return pa_json_print(f, root);
}
