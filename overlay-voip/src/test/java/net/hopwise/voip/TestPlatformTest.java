package net.hopwise.voip;

import net.hopwise.overlay.testing.PlatformContract;

/** JUnit Jupiter and jqwik on one JUnit Platform in this module. */
class TestPlatformTest extends PlatformContract {}
