package net.hopwise.overlay.node;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;

/**
 * A node's stages in traffic order, and the one way every driver runs them: frames pass from stage to
 * stage (directly here, or through the channel pipeline, whose handlers call {@link #run}), timers run
 * each stage on its own in chain order, and the end of a batch or timer pass flushes every stage from
 * the top down. A fault in a stage is counted, logged and contained where it happens.
 */
final class StageChain {
    private final ProtocolFaults faults;
    private final List<String> names = new ArrayList<>();
    private final List<Stage> stages = new ArrayList<>();
    private Stage[] frozen;
    private TimedStep[] timers;
    /** Each step's deadline as the last deadline walk found it; Long.MIN_VALUE where unknown. */
    private long[] deadlines;
    /** The direct path: sink j hands a frame to the first stage from j on that takes its type. */
    private FrameSink[] sinks;
    /**
     * For each start j and type: the first stage from j on that takes the type; the chain's size if
     * none. Bytes, not ints: a chain has far fewer than 128 stages, and this table is most of what a
     * node's chain weighs.
     */
    private byte[][] takers;

    StageChain(ProtocolFaults faults) {
        this.faults = faults;
    }

    void add(String name, Stage stage) {
        requireOpen();
        requireNew(name);
        names.add(name);
        stages.add(stage);
    }

    /** Puts a stage beside a named one; the first stage (the frame check) always stays first. */
    void insert(String name, StagePosition position, Stage stage) {
        requireOpen();
        requireNew(name);
        int anchor = names.indexOf(position.anchor());
        if (anchor < 0) {
            throw new IllegalArgumentException("no stage named " + position.anchor() + " to put " + name
                    + " beside; the chain is " + names);
        }
        int at = position.before() ? anchor : anchor + 1;
        if (at == 0) {
            throw new IllegalArgumentException("nothing goes before the " + names.get(0)
                    + " stage: it turns datagrams into frames; add a channel handler for raw datagrams instead");
        }
        names.add(at, name);
        stages.add(at, stage);
    }

    private void requireNew(String name) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("a stage named " + name + " is already in the chain " + names);
        }
    }

    private void requireOpen() {
        if (frozen != null) {
            throw new IllegalStateException("stages are added while the node is built, not afterwards");
        }
    }

    /** Fixes the order; called once the core and every module have added their stages. */
    void freeze() {
        frozen = stages.toArray(new Stage[0]);
        timers = new TimedStep[frozen.length];
        deadlines = new long[frozen.length];
        java.util.Arrays.fill(deadlines, Long.MIN_VALUE);
        sinks = new FrameSink[frozen.length + 1];
        for (int i = 0; i < frozen.length; i++) {
            Stage stage = frozen[i];
            timers[i] = new TimedStep(names.get(i)) {
                @Override
                long deadlineNanos() {
                    return stage.nextDeadlineNanos();
                }

                @Override
                void run(long nowNanos) {
                    stage.onTimer(nowNanos);
                }
            };
        }
        if (frozen.length > Byte.MAX_VALUE) {
            throw new IllegalStateException("a chain of " + frozen.length + " stages is more than a node takes");
        }
        takers = new byte[frozen.length + 1][];
        byte[] none = new byte[256];
        java.util.Arrays.fill(none, (byte) frozen.length);
        takers[frozen.length] = TakerRows.intern(none);
        for (int j = frozen.length - 1; j >= 0; j--) {
            byte[] row = new byte[256];
            for (int type = 0; type < 256; type++) {
                row[type] = frozen[j].takes(type) ? (byte) j : takers[j + 1][type];
            }
            takers[j] = TakerRows.intern(row);
        }
        for (int j = 0; j <= frozen.length; j++) {
            byte[] taker = takers[j];
            sinks[j] = frame -> {
                int i = taker[frame.type()];
                if (i < frozen.length) {
                    run(i, frame, sinks[i + 1]);
                }
            };
        }
    }

    List<String> names() {
        return List.copyOf(names);
    }

    int size() {
        return frozen.length;
    }

    Stage stage(int index) {
        return frozen[index];
    }

    /** The first stage from {@code from} on that takes frames of {@code type}; the chain's size if none. */
    int taker(int from, int type) {
        return takers[from][type];
    }

    /** Passes a frame up the chain from stage {@code index}, stage by stage, without Netty. */
    void inbound(int index, Frame frame) {
        sinks[index].accept(frame);
    }

    /** Hands a frame to one stage, {@code next} being the rest of the chain; a fault stops here. */
    void run(int index, Frame frame, FrameSink next) {
        try {
            frozen[index].onFrame(frame, next);
        } catch (RuntimeException e) {
            Object type = frame.packetType() != null ? frame.packetType() : "type " + frame.type();
            faults.record("a " + type + " packet from " + frame.link().name() + " in the " + names.get(index)
                    + " stage", e, frame.nowNanos());
        }
    }

    /**
     * Runs the timers that are due, each stage on its own, then flushes. Which stages may be due is
     * read from the deadlines of the last {@link #nextDeadlineNanos()}, which every driver asks after
     * each piece of work, so that a pass does not ask every stage again; a stage listed as due is
     * still asked before it runs. A stage that became due during this pass, or through a call the
     * driver did not follow with {@link #nextDeadlineNanos()}, runs at the driver's next wake-up,
     * which that call's answer (now or earlier) brings at once.
     */
    void onTimer(long nowNanos) {
        TimedStep[] steps = timers;
        long[] known = deadlines;
        for (int i = 0; i < steps.length; i++) {
            if (known[i] <= nowNanos) {
                known[i] = Long.MIN_VALUE; // asked again at the next pass unless a deadline walk comes first
                steps[i].runIfDue(nowNanos, faults);
            }
        }
        flush(nowNanos);
    }

    /** The end of a batch or timer pass: every stage sends what it held, from the top of the chain down. */
    void flush(long nowNanos) {
        for (int i = frozen.length - 1; i >= 0; i--) {
            try {
                frozen[i].flush(nowNanos);
            } catch (RuntimeException e) {
                faults.record("the end of a batch in the " + names.get(i) + " stage", e, nowNanos);
            }
        }
    }

    long nextDeadlineNanos() {
        TimedStep[] steps = timers;
        long[] known = deadlines;
        long next = Long.MAX_VALUE;
        for (int i = 0; i < steps.length; i++) {
            long deadline = steps[i].nextDeadlineNanos();
            known[i] = deadline;
            next = Math.min(next, deadline);
        }
        return next;
    }

    /** Closes the first stage (no more frames), then the rest from the top down. */
    void close(long nowNanos) {
        closeOne(0, nowNanos);
        for (int i = frozen.length - 1; i > 0; i--) {
            closeOne(i, nowNanos);
        }
    }

    private void closeOne(int i, long nowNanos) {
        try {
            frozen[i].close();
        } catch (RuntimeException e) {
            faults.record("closing the " + names.get(i) + " stage", e, nowNanos);
        }
    }

    /** A step added to the timer after the stages, for tests of the timer's fault handling. */
    void addTimedStep(TimedStep step) {
        TimedStep[] more = java.util.Arrays.copyOf(timers, timers.length + 1);
        more[timers.length] = step;
        timers = more;
        deadlines = java.util.Arrays.copyOf(deadlines, more.length);
        deadlines[more.length - 1] = Long.MIN_VALUE;
    }
}
