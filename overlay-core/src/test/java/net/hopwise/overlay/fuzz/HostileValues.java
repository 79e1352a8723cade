package net.hopwise.overlay.fuzz;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;

/**
 * The values {@link HostilePackets} puts in fields: numbers at the edges of their ranges, node ids
 * from the target, its real neighbours, the attacker and a pool of made-up nodes, names that match
 * their ids or another node's, sequences around the ones the target floods and at the top of the
 * range, and ages around maxAge.
 */
final class HostileValues {
    /** Made-up origins come from a small pool so that the same ones return with growing sequences. */
    private static final int MADE_UP_POOL = 96;

    private final SplittableRandom random;
    private final String attackerName;
    private final long attackerId;
    private final long targetId;
    private final String[] realNames;
    private final long[] realIds;
    private final long[] madeUp = new long[MADE_UP_POOL];
    private final long maxAgeMillis;
    private final int[] openPorts;
    /** The latest sequence seen per origin in the target's floods: forged ones are placed around it. */
    private final Map<Long, Long> learned = new HashMap<>();
    private boolean spareReal;

    HostileValues(SplittableRandom random, String attackerName, String targetName, String[] realNames,
            long maxAgeMillis, int[] openPorts) {
        this.random = random;
        this.attackerName = attackerName;
        this.attackerId = NodeId.ofName(attackerName).value();
        this.targetId = NodeId.ofName(targetName).value();
        this.realNames = realNames.clone();
        this.realIds = new long[realNames.length];
        for (int i = 0; i < realNames.length; i++) {
            realIds[i] = NodeId.ofName(realNames[i]).value();
        }
        for (int i = 0; i < MADE_UP_POOL; i++) {
            madeUp[i] = NodeId.ofName("phantom-" + i).value();
        }
        this.maxAgeMillis = maxAgeMillis;
        this.openPorts = openPorts.clone();
    }

    void spareRealSequences(boolean spare) {
        this.spareReal = spare;
    }

    void learn(long origin, long sequence) {
        learned.merge(origin, sequence, Math::max);
    }

    long origin() {
        int r = random.nextInt(100);
        if (r < 15) {
            return targetId;
        }
        if (r < 45) {
            return realIds[random.nextInt(realIds.length)];
        }
        if (r < 50) {
            return attackerId;
        }
        if (r < 95) {
            return madeUp[random.nextInt(madeUp.length)];
        }
        return pick(50) ? random.nextLong() : edgeLong();
    }

    long destination() {
        int r = random.nextInt(100);
        if (r < 60) {
            return realIds[random.nextInt(realIds.length)];
        }
        if (r < 70) {
            return attackerId;
        }
        return r < 90 ? madeUp[random.nextInt(madeUp.length)] : edgeLong();
    }

    long anyNode() {
        return pick(60) ? realIds[random.nextInt(realIds.length)]
                : pick(20) ? attackerId : madeUp[random.nextInt(madeUp.length)];
    }

    String nameFor(long origin) {
        for (int i = 0; i < realIds.length; i++) {
            if (realIds[i] == origin) {
                // Mostly the real name; sometimes another real node's, so one name maps to two ids.
                return pick(85) ? realNames[i] : realNames[random.nextInt(realNames.length)];
            }
        }
        if (origin == attackerId) {
            return attackerName;
        }
        return pick(80) ? "phantom-" + Long.toHexString(origin & 0xFFFF)
                : realNames[random.nextInt(realNames.length)];
    }

    long sequenceFor(long origin) {
        long known = learned.getOrDefault(origin, 1L);
        long forged = switch (random.nextInt(12)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> Long.MAX_VALUE;
            case 3 -> Long.MAX_VALUE - 1 - random.nextInt(4);
            case 4 -> Long.MAX_VALUE / 2 + random.nextInt(1000);
            case 5 -> known;
            case 6 -> Math.max(0, known - 1);
            case 7 -> known + 1;
            case 8 -> known + 2 + random.nextInt(100);
            case 9 -> known + (1L << (20 + random.nextInt(40)));
            case 10 -> pick(50) ? -1 : Long.MIN_VALUE;
            default -> random.nextLong(Long.MAX_VALUE);
        };
        // Sparing takes only the top quarter away: jumps of up to 2^59 remain.
        return spareReal && forged > 1L << 62 && isReal(origin) ? known + 1 : forged;
    }

    private boolean isReal(long id) {
        for (long real : realIds) {
            if (real == id) {
                return true;
            }
        }
        return false;
    }

    long age() {
        return switch (random.nextInt(9)) {
            case 0, 1 -> 0;
            case 2 -> 1;
            case 3 -> maxAgeMillis - 1;
            case 4 -> maxAgeMillis;
            case 5 -> maxAgeMillis + 1;
            case 6 -> Integer.MAX_VALUE;
            case 7 -> 1L << 31;
            default -> random.nextLong(maxAgeMillis);
        };
    }

    int port() {
        if (pick(30) && openPorts.length > 0) {
            return openPorts[random.nextInt(openPorts.length)];
        }
        return u16();
    }

    long edgeLong() {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> Long.MAX_VALUE;
            case 4 -> Long.MIN_VALUE;
            case 5 -> Long.MAX_VALUE - 1;
            case 6 -> Long.MIN_VALUE + 1;
            default -> random.nextLong();
        };
    }

    long u32() {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 0xFFFF_FFFFL;
            case 3 -> 0x7FFF_FFFFL;
            case 4 -> 0x8000_0000L;
            default -> random.nextLong(1L << 32);
        };
    }

    int u16() {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 0xFFFF;
            case 3 -> 0x8000;
            default -> random.nextInt(1 << 16);
        };
    }

    int u8() {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 0xFF;
            case 2 -> 0x80;
            default -> random.nextInt(256);
        };
    }

    int offByOne(int value) {
        return Math.max(0, value + (pick(50) ? 1 : -1));
    }

    boolean pick(int percent) {
        return random.nextInt(100) < percent;
    }
}
