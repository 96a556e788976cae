// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-hold GROUP CMD [ARG...]
 *
 * Test helper for the VM guest (built static into the initramfs): puts IOMMU
 * group GROUP into a VFIO type1 container, as a VMM does, so that the group's
 * functions get an unmanaged domain attached instead of their default one;
 * then runs CMD and releases the group when it exits.
 *
 * Exit status: CMD's (128 + signal if it was killed), or 100-107 when the
 * group could not be taken: 104 not viable, 107 when VFIO_SET_IOMMU fails
 * with EPERM, vfio_iommu_type1's refusal of an IOMMU that does not remap
 * interrupts ("No interrupt remapping support" in the kernel log).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int fail(int code, const char *what)
{
	perror(what);
	return code;
}

int main(int argc, char **argv)
{
	struct vfio_group_status st = { .argsz = sizeof(st) };
	char path[64];
	int container, group, status;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: vfio-hold GROUP CMD [ARG...]\n");
		return 100;
	}
	container = open("/dev/vfio/vfio", O_RDWR);
	if (container < 0)
		return fail(101, "/dev/vfio/vfio");
	if (ioctl(container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
	    ioctl(container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU) <= 0) {
		fprintf(stderr, "vfio-hold: no VFIO type1v2 IOMMU\n");
		return 102;
	}
	snprintf(path, sizeof(path), "/dev/vfio/%s", argv[1]);
	group = open(path, O_RDWR);
	if (group < 0)
		return fail(103, path);
	if (ioctl(group, VFIO_GROUP_GET_STATUS, &st) < 0)
		return fail(104, "VFIO_GROUP_GET_STATUS");
	if (!(st.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		fprintf(stderr, "vfio-hold: group %s is not viable (a member is bound to a host driver)\n",
			argv[1]);
		return 104;
	}
	if (ioctl(group, VFIO_GROUP_SET_CONTAINER, &container) < 0)
		return fail(105, "VFIO_GROUP_SET_CONTAINER");
	if (ioctl(container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU) < 0)
		return fail(errno == EPERM ? 107 : 106, "VFIO_SET_IOMMU");

	pid = fork();
	if (pid < 0)
		return fail(106, "fork");
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail(106, "waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
