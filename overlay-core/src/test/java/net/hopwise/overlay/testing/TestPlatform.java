package net.hopwise.overlay.testing;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.TestEngine;

/** What the JUnit Platform of the running module can see, so each module can prove its engines. */
public final class TestPlatform {
    private TestPlatform() {}

    /** Ids of the test engines on the class path (for example junit-jupiter and jqwik). */
    public static Set<String> engineIds() {
        Set<String> ids = new TreeSet<>();
        for (TestEngine engine : ServiceLoader.load(TestEngine.class)) {
            ids.add(engine.getId());
        }
        return ids;
    }
}
