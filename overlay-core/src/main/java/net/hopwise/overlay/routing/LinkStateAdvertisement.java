package net.hopwise.overlay.routing;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.NodeId;

/**
 * One node's link-state advertisement: the links it has to its up neighbours, with their costs.
 *
 * <p><b>Versions.</b> An origin numbers its advertisements with a 64-bit sequence that only grows;
 * the higher sequence wins everywhere. An origin starts counting from the {@code sequenceBase} it is
 * given, which should be the wall-clock time in milliseconds at start: a restarted origin then starts
 * above everything its previous life sent (it originates far less than once per millisecond). If it
 * does not, for instance because the clock went back, the first neighbour that hands it an older
 * life's advertisement with a sequence at or above its own makes it jump past that sequence and
 * re-originate (the OSPF rule for self-originated advertisements), so a restarted origin always wins.
 * The same rule beats a forged newer copy of a live origin.
 *
 * <p>Because sequences are wall-clock milliseconds, a router refuses a newer copy whose sequence is
 * more than maxSequenceLead ahead of its own clock ({@link AdvertisementAdmission}), its own origin's
 * included. A restart, however long the previous life, starts at the clock and is inside that window;
 * a sequence pushed far ahead by a forger is not, so no input brings any sequence near the end of the
 * 63-bit space, and a node can always re-originate above anything it was shown. The wire format is
 * unchanged.
 *
 * <p><b>Age.</b> {@code ageMillis} is how long ago the origin created this version, as known by the
 * node that wrote this copy. Each holder keeps ageing its copy and writes the current age when it
 * floods it, so every copy of one version expires at about the same moment everywhere: when its age
 * reaches the configured maxAge, {@code maxAge} after origination plus the flooding transit time.
 * Origins re-originate every refresh interval, so only the advertisements of nodes that left expire.
 * Copies in a {@link LinkStateDatabase} carry age 0; the database knows their age.
 *
 * @param origin the node that created the advertisement
 * @param originName the origin's name, so every node can name every other node
 * @param sequence version of this origin's advertisement, 0 or more
 * @param ageMillis age of this copy when written, 0 or more
 * @param links the origin's links, at most {@link #MAX_LINKS}, each to a different node that is not
 *     the origin
 * @param signature the origin's signature over the version (see {@link net.hopwise.overlay.spi.LinkStateSigner}),
 *     1 to 255 bytes, or null where link state is not signed; never copied, never changed
 */
public record LinkStateAdvertisement(
        NodeId origin, String originName, long sequence, int ageMillis, List<Link> links, byte[] signature) {

    /** The longest signature the wire carries: its length is one byte. */
    public static final int MAX_SIGNATURE_BYTES = 255;

    /** An unsigned version. */
    public LinkStateAdvertisement(NodeId origin, String originName, long sequence, int ageMillis, List<Link> links) {
        this(origin, originName, sequence, ageMillis, links, null);
    }

    /** The wire format counts links in one byte, as Spines caps a node at 255 links. */
    public static final int MAX_LINKS = 255;

    /** One link of the origin: the origin's end of it, with the cost the origin measured. */
    public record Link(NodeId neighbour, LinkCost cost) {
        public Link {
            Objects.requireNonNull(neighbour, "neighbour");
            Objects.requireNonNull(cost, "cost");
        }
    }

    public LinkStateAdvertisement {
        Objects.requireNonNull(origin, "origin");
        NodeId.requireValidName(originName);
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be 0 or more: " + sequence);
        }
        if (ageMillis < 0) {
            throw new IllegalArgumentException("age must be 0 or more: " + ageMillis);
        }
        links = List.copyOf(links);
        if (links.size() > MAX_LINKS) {
            throw new IllegalArgumentException("an advertisement lists at most " + MAX_LINKS + " links: " + links.size());
        }
        long[] neighbours = new long[links.size()];
        for (int i = 0; i < neighbours.length; i++) {
            neighbours[i] = links.get(i).neighbour().value();
            if (neighbours[i] == origin.value()) {
                throw new IllegalArgumentException("an origin has no link to itself: " + origin);
            }
        }
        if (hasDuplicate(neighbours)) {
            throw new IllegalArgumentException("a neighbour appears twice in the advertisement of " + origin);
        }
        if (signature != null && (signature.length == 0 || signature.length > MAX_SIGNATURE_BYTES)) {
            throw new IllegalArgumentException("a signature is 1 to " + MAX_SIGNATURE_BYTES + " bytes: " + signature.length);
        }
    }

    /** Whether some value occurs twice; sorts the array. */
    static boolean hasDuplicate(long[] values) {
        Arrays.sort(values);
        for (int i = 1; i < values.length; i++) {
            if (values[i] == values[i - 1]) {
                return true;
            }
        }
        return false;
    }

    /** This version with another age. */
    public LinkStateAdvertisement withAgeMillis(int age) {
        return age == ageMillis ? this : new LinkStateAdvertisement(origin, originName, sequence, age, links, signature);
    }

    /** This version with {@code signature} (null: unsigned); the array is never copied or changed. */
    public LinkStateAdvertisement withSignature(byte[] signature) {
        return new LinkStateAdvertisement(origin, originName, sequence, ageMillis, links, signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinkStateAdvertisement a && origin.equals(a.origin) && originName.equals(a.originName)
                && sequence == a.sequence && ageMillis == a.ageMillis && links.equals(a.links)
                && Arrays.equals(signature, a.signature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, originName, sequence, ageMillis, links) * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "LinkStateAdvertisement[origin=" + origin + ", originName=" + originName + ", sequence=" + sequence
                + ", ageMillis=" + ageMillis + ", links=" + links
                + (signature == null ? "" : ", signature=" + signature.length + " bytes") + "]";
    }

    /** The cost the origin advertises for its link to {@code neighbour}, or null if it lists none. */
    public LinkCost costTo(NodeId neighbour) {
        for (Link link : links) {
            if (link.neighbour().equals(neighbour)) {
                return link.cost();
            }
        }
        return null;
    }

    /**
     * A total order on the content of two versions with the same origin and sequence (name, then links),
     * the same on every node: it decides which of two different copies with one sequence every node
     * keeps, so they all keep the same one, and the origin sees it if it is not its own.
     */
    static int compareContent(LinkStateAdvertisement x, LinkStateAdvertisement y) {
        int c = x.originName.compareTo(y.originName);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(x.links.size(), y.links.size());
        for (int i = 0; c == 0 && i < x.links.size(); i++) {
            Link p = x.links.get(i);
            Link q = y.links.get(i);
            c = Long.compare(p.neighbour().value(), q.neighbour().value());
            if (c == 0) {
                c = Integer.compare(p.cost().latencyMicros(), q.cost().latencyMicros());
            }
            if (c == 0) {
                c = Integer.compare(p.cost().lossPpm(), q.cost().lossPpm());
            }
        }
        return c;
    }

    /** Same origin, name, sequence and links; the age may differ. */
    public boolean sameVersionAs(LinkStateAdvertisement other) {
        return origin.equals(other.origin)
                && sequence == other.sequence
                && originName.equals(other.originName)
                && links.equals(other.links);
    }
}
