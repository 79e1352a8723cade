package net.hopwise.overlay.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Auto-registered for every Jupiter test class: a class that leaked a buffer fails. */
public final class LeakCheckExtension implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) {
        LeakDetection.assertNoLeaks();
    }
}
