package net.hopwise.overlay.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Installs {@link LeakDetection} when the JUnit Platform starts, before any test loads Netty. */
public final class LeakDetectionSessionListener implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        LeakDetection.install();
    }
}
