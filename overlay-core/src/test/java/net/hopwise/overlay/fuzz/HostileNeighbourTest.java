package net.hopwise.overlay.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An admitted neighbour of b sends tens of thousands of structured hostile packets of every type
 * while a and d exchange traffic across b (see {@link VirtualAttack}); each invariant is one test, so
 * a run names every one that broke, with the seed that replays it ({@code -Dhopwise.fuzz.seed=...}).
 */
class HostileNeighbourTest {
    private static final long SEED = Long.getLong("hopwise.fuzz.seed", 0x5EED_F022L);
    private static final int PACKETS = Integer.getInteger("hopwise.fuzz.packets", 40_000);
    /** The loopback run's rate: 4000 a second. */
    private static final int PER_MILLISECOND = Integer.getInteger("hopwise.fuzz.perMillisecond", 4);

    private static VirtualAttack attack;

    @BeforeAll
    static void attack() {
        attack = new VirtualAttack(SEED, PACKETS, PER_MILLISECOND)
                .spareRealSequences(Boolean.getBoolean("hopwise.fuzz.spareRealSequences")).run();
        System.out.println("hostile neighbour, " + attack.summary());
    }

    private static void holds(String check) {
        List<String> facts = attack.violations().get(check);
        assertThat(facts).as("%s (seed %d; %s)", check, attack.seed(), attack.summary()).isEmpty();
    }

    @Test
    void timersAdvance() {
        holds(VirtualAttack.TIMERS);
    }

    @Test
    void noExceptionEscapesTheNode() {
        holds(VirtualAttack.NO_ESCAPE);
        assertThat(attack.escaped()).as("handler errors, seed %d", attack.seed()).isZero();
    }

    @Test
    void databasesStayBounded() {
        holds(VirtualAttack.DATABASE_BOUND);
    }

    @Test
    void theAttackedNodeKeepsOriginatingItsAdvertisement() {
        holds(VirtualAttack.TARGET_ORIGINATES);
    }

    @Test
    void noRealNodesSequenceIsPushedFarBeyondItsOwn() {
        holds(VirtualAttack.SEQUENCES);
    }

    @Test
    void everyRealNodeReachesEveryOtherWithinOneRefreshInterval() {
        holds(VirtualAttack.REACHABILITY);
    }

    @Test
    void realLinksAreUpAfterTheAttack() {
        holds(VirtualAttack.LINKS);
    }

    @Test
    void realTrafficResumes() {
        holds(VirtualAttack.TRAFFIC);
    }
}
