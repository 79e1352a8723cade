package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;

/**
 * Makes up what a fuzzing admitted neighbour sends: advertisements of invented origins, of real nodes
 * (the receiver included) and of itself, with sequences from 0 to {@link Long#MAX_VALUE} (often at the
 * edges that matter: just above what is held, at the window's edge, beyond it), any age, and links to
 * real and invented nodes. Seeded, so a failure replays.
 */
final class HostileNeighbour {
    final NodeId id;
    private final List<NodeId> real;
    private final Random random;
    private final long clockBaseMillis;
    private final long leadMillis;
    private final int maxAgeMillis;
    /** If set, a third of the advertisements are copies of this origin's. */
    NodeId focus;

    HostileNeighbour(NodeId id, List<NodeId> real, RoutingConfig config, long clockBaseMillis, long seed) {
        this.id = id;
        this.real = List.copyOf(real);
        this.random = new Random(seed);
        this.clockBaseMillis = clockBaseMillis;
        this.leadMillis = config.maxSequenceLead().toMillis();
        this.maxAgeMillis = (int) config.maxAge().toMillis();
    }

    /** One made-up advertisement, as seen by a receiver whose database is {@code target} at {@code nowNanos}. */
    LinkStateAdvertisement next(LinkStateDatabase target, long nowNanos) {
        double kind = random.nextDouble();
        NodeId origin = focus != null && random.nextInt(3) == 0 ? focus
                : kind < 0.45 ? real.get(random.nextInt(real.size()))
                : kind < 0.5 ? id
                : new NodeId(1 + random.nextInt(5_000));
        long held = target.get(origin).map(LinkStateAdvertisement::sequence).orElse(0L);
        long edge = clockBaseMillis + nowNanos / 1_000_000 + leadMillis;
        long sequence = switch (random.nextInt(8)) {
            case 0 -> Long.MAX_VALUE;
            case 1 -> random.nextLong() & Long.MAX_VALUE;
            case 2 -> edge - random.nextInt(3);
            case 3 -> edge + 1 + random.nextInt(1_000);
            case 4 -> held + 1;
            case 5 -> Math.max(0, held - random.nextInt(3));
            case 6 -> held + 1 + (random.nextLong() & 0xFFFF_FFFFL);
            default -> random.nextInt(1_000);
        };
        int age = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> maxAgeMillis - 1 - random.nextInt(1_000);
            case 2 -> maxAgeMillis + random.nextInt(1_000);
            case 3 -> Integer.MAX_VALUE;
            default -> random.nextInt(maxAgeMillis);
        };
        List<LinkStateAdvertisement.Link> links = new ArrayList<>();
        for (int k = random.nextInt(6); k > 0; k--) {
            NodeId to = random.nextBoolean() ? real.get(random.nextInt(real.size())) : new NodeId(1 + random.nextInt(5_000));
            if (!to.equals(origin) && links.stream().noneMatch(l -> l.neighbour().equals(to))) {
                links.add(new LinkStateAdvertisement.Link(to, new LinkCost(random.nextInt(100_000), random.nextInt(1_000_001))));
            }
        }
        return new LinkStateAdvertisement(origin, "h" + random.nextInt(100), sequence, age, links);
    }

    /** An update of 1 to {@code most} made-up advertisements. */
    LinkStateUpdate update(LinkStateDatabase target, long nowNanos, int most) {
        List<LinkStateAdvertisement> ads = new ArrayList<>();
        for (int i = 1 + random.nextInt(most); i > 0; i--) {
            ads.add(next(target, nowNanos));
        }
        return new LinkStateUpdate(ads);
    }

    Random random() {
        return random;
    }
}
