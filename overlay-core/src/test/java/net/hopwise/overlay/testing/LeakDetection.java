package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes every Netty buffer leak a test failure instead of a log line.
 *
 * <p>Every buffer is tracked, whatever the level: the detector samples one buffer in one. At Netty's
 * {@code simple} level, the build's default ({@code netty.leak.level} in the parent pom), a leak is
 * reported with the stack that allocated the buffer; at {@code paranoid} also with the last accesses
 * before it leaked. The accesses are worth asking for when a leak is being hunted
 * ({@code ./mvnw verify -Dnetty.leak.level=paranoid}), not in every run: each records a stack trace,
 * which made them most of the CPU of the simulator's tests and set the suite's length.
 *
 * <p>Netty only reports a leak when the leaked object has been garbage-collected and a later
 * allocation polls the reference queue, so {@link #assertNoLeaks()} forces both before looking.
 */
public final class LeakDetection {
    private static final List<String> LEAKS = new ArrayList<>();
    private static volatile boolean installed;

    private LeakDetection() {}

    /** Installs the recording factory; must run before Netty's buffer classes initialise. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        ResourceLeakDetector.setLevel(level(System.getProperty("io.netty.leakDetection.level", "simple")));
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                    Class<T> resource, int samplingInterval, long maxActive) {
                return new RecordingDetector<>(resource, 1);
            }
        });
    }

    /**
     * The level asked for; never {@code disabled}, which would let a leak pass every test unseen, and
     * a name Netty does not know is an error here rather than Netty's silent default.
     */
    static ResourceLeakDetector.Level level(String name) {
        ResourceLeakDetector.Level level;
        try {
            level = ResourceLeakDetector.Level.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("io.netty.leakDetection.level=" + name
                    + " is not a level: simple, advanced or paranoid", unknown);
        }
        if (level == ResourceLeakDetector.Level.DISABLED) {
            throw new IllegalArgumentException("io.netty.leakDetection.level=" + name
                    + ": the tests fail on any buffer leak, so they need simple, advanced or paranoid");
        }
        return level;
    }

    /** Fails with every leak reported since the last call. */
    public static void assertNoLeaks() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            for (int i = 0; i < 64; i++) {
                ByteBuf pooled = PooledByteBufAllocator.DEFAULT.buffer(8);
                pooled.release();
                ByteBuf unpooled = UnpooledByteBufAllocator.DEFAULT.buffer(8);
                unpooled.release();
            }
        }
        List<String> found;
        synchronized (LEAKS) {
            found = new ArrayList<>(LEAKS);
            LEAKS.clear();
        }
        if (!found.isEmpty()) {
            throw new AssertionError("Netty buffer leak(s) detected:\n" + String.join("\n----\n", found));
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        @SuppressWarnings("deprecation")
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            synchronized (LEAKS) {
                LEAKS.add(resourceType + " leaked:" + records);
            }
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            synchronized (LEAKS) {
                LEAKS.add(resourceType + " leaked (untraced)");
            }
        }
    }
}
