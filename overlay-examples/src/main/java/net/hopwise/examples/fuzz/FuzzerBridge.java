package net.hopwise.examples.fuzz;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * The hostile neighbour of overlay-core's tests ({@code net.hopwise.overlay.fuzz.HostileNeighbour}),
 * reached through method handles: this module's main code does not compile against overlay-core's
 * test classes, and a second copy of the fuzzer here would drift from the one the suite runs. The
 * run therefore needs the test classpath ({@code -Dexec.classpathScope=test}), as its command says.
 */
final class FuzzerBridge {
    static final String CLASS = "net.hopwise.overlay.fuzz.HostileNeighbour";

    private final Object neighbour;
    private final MethodHandle onTimer;
    private final MethodHandle onDatagram;
    private final MethodHandle attack;
    private final MethodHandle admitted;

    FuzzerBridge(long seed, String attacker, String target, String[] realNames, long maxAgeMillis, int[] openPorts,
            long nowNanos) {
        try {
            Class<?> type = Class.forName(CLASS);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle create = lookup.findConstructor(type, MethodType.methodType(void.class, long.class,
                    String.class, String.class, String[].class, long.class, int[].class, long.class));
            neighbour = create.invoke(seed, attacker, target, realNames, maxAgeMillis, openPorts, nowNanos);
            onTimer = lookup.findVirtual(type, "onTimer", MethodType.methodType(List.class, long.class)).bindTo(neighbour);
            onDatagram = lookup.findVirtual(type, "onDatagram", MethodType.methodType(List.class, byte[].class,
                    long.class)).bindTo(neighbour);
            attack = lookup.findVirtual(type, "attack", MethodType.methodType(byte[].class, long.class))
                    .bindTo(neighbour);
            admitted = lookup.findVirtual(type, "admitted", MethodType.methodType(boolean.class)).bindTo(neighbour);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(CLASS + " is not on the classpath: run with -Dexec.classpathScope=test"
                    + " after test-compile (the fuzzer lives in overlay-core's tests)", e);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot drive " + CLASS, e);
        }
    }

    @SuppressWarnings("unchecked")
    List<byte[]> onTimer(long nowNanos) {
        try {
            return (List<byte[]>) onTimer.invoke(nowNanos);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @SuppressWarnings("unchecked")
    List<byte[]> onDatagram(byte[] datagram, long nowNanos) {
        try {
            return (List<byte[]>) onDatagram.invoke(datagram, nowNanos);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    byte[] attack(long nowNanos) {
        try {
            return (byte[]) attack.invoke(nowNanos);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    boolean admitted() {
        try {
            return (boolean) admitted.invoke();
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(e);
    }
}
