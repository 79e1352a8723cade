package net.hopwise.voip.sdp;

import java.util.HashMap;
import java.util.Map;

/**
 * What the relay changes in a description facing one phone: where media must go (its own address
 * and ports), the o= version it tracks for that session owner, and whether ICE lines go. Built
 * fresh per rewrite; only what is set is changed.
 */
public final class SdpRewrite {
    private Connection connection;
    private final Map<Integer, Connection> mediaConnections = new HashMap<>();
    private final Map<Integer, Integer> ports = new HashMap<>();
    private final Map<Integer, Integer> rtcpPorts = new HashMap<>();
    private long originVersion = -1;
    private Connection originAddress;
    private boolean stripIce;
    private boolean replaceUnspecified;

    /** The address for every c= line, session and media level (media level unless set per media). */
    public SdpRewrite connection(Connection address) {
        this.connection = address;
        return this;
    }

    /** The address for media {@code index}'s own c= line, over {@link #connection(Connection)}. */
    public SdpRewrite mediaConnection(int index, Connection address) {
        mediaConnections.put(index, address);
        return this;
    }

    /** The port for m= line {@code index}; a port of 0 in the input (a rejected stream) is kept. */
    public SdpRewrite mediaPort(int index, int port) {
        checkPort(port);
        ports.put(index, port);
        return this;
    }

    /**
     * The port of media {@code index}'s a=rtcp attribute (RFC 3605) when it has one; its address,
     * if written, becomes that media's rewritten connection address.
     */
    public SdpRewrite rtcpPort(int index, int port) {
        checkPort(port);
        rtcpPorts.put(index, port);
        return this;
    }

    /** The o= version to emit (see {@link SdpOriginVersions}). */
    public SdpRewrite originVersion(long version) {
        if (version < 0) {
            throw new IllegalArgumentException("negative SDP version " + version);
        }
        this.originVersion = version;
        return this;
    }

    /** The o= address (rtpengine's replace-origin), so the phone's private address does not travel on. */
    public SdpRewrite originAddress(Connection address) {
        this.originAddress = address;
        return this;
    }

    /** Removes every ICE attribute (RFC 8839), so that media cannot bypass the relay. */
    public SdpRewrite stripIce(boolean strip) {
        this.stripIce = strip;
        return this;
    }

    /**
     * Whether a c= holding the unspecified address (0.0.0.0, the RFC 2543 way to put a call on hold)
     * is rewritten too. Off by default: the hold then reaches the other phone as it was sent, and no
     * media is expected that the relay would have to carry.
     */
    public SdpRewrite replaceUnspecified(boolean replace) {
        this.replaceUnspecified = replace;
        return this;
    }

    boolean replaceUnspecified() {
        return replaceUnspecified;
    }

    Connection connection() {
        return connection;
    }

    Connection connectionFor(int media) {
        Connection own = mediaConnections.get(media);
        return own != null ? own : connection;
    }

    Integer port(int media) {
        return ports.get(media);
    }

    Integer rtcpPort(int media) {
        return rtcpPorts.get(media);
    }

    long originVersion() {
        return originVersion;
    }

    Connection originAddress() {
        return originAddress;
    }

    boolean stripIce() {
        return stripIce;
    }

    private static void checkPort(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }
}
