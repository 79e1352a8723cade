package net.hopwise.overlay.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Holds an event loop in one task until closed, as a long turn serving other sockets would: what
 * arrives meanwhile queues in sockets and task queues, so a test can fill them deterministically. The
 * hold gives up by itself after a minute, so a failing test cannot hang the suite.
 */
public final class HeldLoop implements AutoCloseable {
    private final CountDownLatch release = new CountDownLatch(1);

    private HeldLoop() {
    }

    /** Holds the node's event loop; returns once it runs the holding task. */
    public static HeldLoop hold(net.hopwise.overlay.OverlayNode node) throws InterruptedException {
        return hold(task -> node.eventLoop().execute(task));
    }

    /** Returns once the loop runs the holding task. */
    public static HeldLoop hold(Executor loop) throws InterruptedException {
        HeldLoop held = new HeldLoop();
        CountDownLatch holding = new CountDownLatch(1);
        loop.execute(() -> {
            holding.countDown();
            try {
                held.release.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!holding.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the loop did not run the holding task within a minute");
        }
        return held;
    }

    /** Lets the loop go on. */
    @Override
    public void close() {
        release.countDown();
    }
}
