"""Cinder volume driver for the lab: Cinder's own fake driver, which logs calls
and needs no block device, plus volumes from images.

The fake driver cannot copy an image (that needs privsep, qemu-img and a device);
claiming a driver-side clone skips the copy, and Cinder still marks the volume
bootable with the image's metadata, which is all Nova's fake driver needs.
"""
from cinder.tests.fake_driver import FakeLoggingVolumeDriver


class FakeVolumeDriver(FakeLoggingVolumeDriver):

    def clone_image(self, context, volume, image_location, image_meta, image_service):
        return {}, True
