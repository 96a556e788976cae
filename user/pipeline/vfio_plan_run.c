// SPDX-License-Identifier: GPL-2.0
#include "vfio_plan_run.h"

#include <errno.h>

#include "check.h"
#include "exitcodes.h"
#include "vfio_plan.h"
#include "vfio_plan_out.h"

int pa_vfio_plan_run(const struct pa_load *load, const struct pa_addr *bdfs,
		     size_t n, bool json, FILE *out, struct pa_error *e)
{
	struct pa_load l = *load;
	struct pa_vfio_plan p;
	struct pa_policy pol;
	struct pa_report rep;
	struct pa_check c;
	int rc, err;

	pa_policy_default(&pol);
	for (int i = 0; i < PA_NPROFILES; i++)
		pol.profiles[i] = i == PA_PROFILE_VFIO;
	l.host = true;
	l.policy = &pol;
	rc = pa_load_report(&l, &rep, e);
	if (rc) {
		pa_policy_clear(&pol);
		return rc;
	}
	err = pa_check_run(&rep, &pol, &c);
	if (err) {
		rc = pa_error_errno(e, err, &(struct pa_errinfo){ .op = "check" });
		goto out;
	}
	rc = pa_vfio_plan_build(&rep, &c, bdfs, n, &p, e);
	if (rc < 0)
		rc = pa_error_errno(e, rc, &(struct pa_errinfo){ .op = "vfio-plan" });
	if (!rc) {
		err = json ? pa_vfio_plan_json(out, &rep, &p) :
			     pa_vfio_plan_text(out, &rep, &p);
		rc = err ? pa_error_errno(e, err, &(struct pa_errinfo){ .op = "output" }) :
			   pa_vfio_plan_exit_code(&p);
		pa_vfio_plan_clear(&p);
	}
	pa_check_clear(&c);
out:
	pa_report_clear(&rep);
	pa_policy_clear(&pol);
	return rc;
}
