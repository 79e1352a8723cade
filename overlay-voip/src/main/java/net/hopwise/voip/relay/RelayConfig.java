package net.hopwise.voip.relay;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Configuration of one SIP relay beside an overlay node. Immutable; built with {@link #builder}.
 * Each default is declared once here with its reason and listed in docs/configuration.md. Over 400
 * lines because each setting has its constant, field, accessor and builder method here, in one place.
 */
public final class RelayConfig {
    /** The SIP port phones expect (RFC 3261 section 19.1.2), on every interface. */
    public static final InetSocketAddress DEFAULT_SIP_ADDRESS = new InetSocketAddress("0.0.0.0", 5060);
    /** The overlay port relays talk SIP on: the SIP number, so it is easy to spot in a node's port list. */
    public static final int DEFAULT_SIGNALLING_PORT = 5060;
    /** rtpengine's default media port range, which operators' firewalls already open. */
    public static final int DEFAULT_MEDIA_PORT_MIN = 30000;
    public static final int DEFAULT_MEDIA_PORT_MAX = 40000;
    /** rtpengine's --timeout: a call with no media for this long is gone (a phone crashed, a BYE was lost). */
    public static final Duration DEFAULT_MEDIA_TIMEOUT = Duration.ofSeconds(60);
    /** rtpengine's --silent-timeout: held streams send little or nothing, for long. */
    public static final Duration DEFAULT_HELD_MEDIA_TIMEOUT = Duration.ofSeconds(3600);
    /** rtpengine's --offer-timeout: a call never answered (the proxy's Timer C ends it long before). */
    public static final Duration DEFAULT_SETUP_TIMEOUT = Duration.ofSeconds(3600);
    /** rtpengine's --delete-delay: after BYE the call stays to absorb retransmissions and stray media. */
    public static final Duration DEFAULT_LINGER = Duration.ofSeconds(30);
    /**
     * The codec deadline of the thesis' voice experiments: a packet that trails the stream's best
     * transit by more is dropped at the egress, as a phone's jitter buffer would discard it anyway.
     */
    public static final Duration DEFAULT_MEDIA_DEADLINE = Duration.ofMillis(100);
    /**
     * A stream whose phone names its packet time (a=ptime) gets a deadline of this many packets: a
     * jitter buffer holds whole packets, so a phone of 30 ms packets waits longer for one than a phone
     * of 10 ms packets does. Five of RFC 3551's usual 20 ms give the thesis' 100 ms.
     */
    public static final int DEFAULT_MEDIA_DEADLINE_PACKETS = 5;
    /** Most packets a deadline may span: beyond, a stream's deadline would outlast any jitter buffer. */
    public static final int MAX_MEDIA_DEADLINE_PACKETS = 100;
    /** RFC 3261 Timer C for a proxy: more than 3 minutes without a final response to an INVITE. */
    public static final Duration DEFAULT_INVITE_TIMEOUT = Duration.ofSeconds(181);
    /** RFC 3261 T1, the round-trip estimate that paces retransmissions over UDP. */
    public static final Duration DEFAULT_T1 = Duration.ofMillis(500);
    /** RFC 3261 T2, the cap on the retransmission interval of non-INVITE requests. */
    public static final Duration DEFAULT_T2 = Duration.ofSeconds(4);
    /**
     * How long a transaction is kept after its final response, in T1: RFC 3261's Timers H and J (64
     * T1), the longest a peer may still retransmit its request or the relay's response be asked for.
     */
    public static final int DEFAULT_TRANSACTION_WAIT_T1 = 64;
    /**
     * No cap on calls beyond the media port pool, as rtpengine's --max-sessions defaults to none: the
     * pool (5000 pairs by default) is the relay's natural limit, and a cap is the operator's choice.
     */
    public static final int DEFAULT_MAX_CALLS = 0;
    /**
     * The Retry-After of an overload 503 (RFC 3261 section 21.5.4): long enough that a phone retrying
     * finds some calls ended (a call lasts minutes, setup seconds), short enough that a user retrying
     * by hand is not sent away for long.
     */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);
    /**
     * The phones' media sockets on the node's loop for a relay's first calls and on a thread of their
     * own beyond ({@link MediaThread#AUTO}): at load the reads and writes on them are most of a relay's
     * time, and beside the node's loop they run on a second core where there is one (rtpengine runs its
     * sockets on several threads for the same reason); at light load the same thread costs two
     * hand-overs per packet per relay and buys nothing (docs/benchmarks.md, "100 calls, media thread off
     * and on": per-node p99 1.03 / 0.68 ms off against 1.45 / 1.30 ms on, 14% more CPU).
     */
    public static final MediaThread DEFAULT_MEDIA_THREAD = MediaThread.AUTO;
    /**
     * Calls a relay carries with its phones' sockets on the node's loop before the media loop takes
     * the next ones ({@link MediaThread#AUTO}). Measured (docs/benchmarks.md, "The media thread
     * against the node's loop alone, the callers' phases spread"): with phones whose send phases are
     * spread, the node's loop alone gave each node the shorter p99 and 15-22% less CPU at 300, 500 and
     * 1000 calls, where its loop ran about half a core; with SIPp's one burst per 20 ms, the shorter
     * tail at 100 calls and the same CPU at 1000. Beyond 1000 calls (not measured: this machine cannot
     * offer more beside the relays) the media loop takes the next calls, so that a relay whose loop
     * nears a core spreads its phones over a second one.
     */
    public static final int DEFAULT_MEDIA_THREAD_CALLS = 1000;
    /** Kamailio registrar's min_expires: re-registration more often than each minute only loads the relay. */
    public static final int DEFAULT_MIN_EXPIRES = 60;
    /** Kamailio registrar's max_expires: a phone gone for good is forgotten within the hour. */
    public static final int DEFAULT_MAX_EXPIRES = 3600;
    /**
     * The access networks' one-way delay (packetisation, the phones' own legs), which the relay does not
     * see, added to its own in each E-model figure it gives: none unless the operator states it, so that
     * no figure claims a delay nobody measured.
     */
    public static final Duration DEFAULT_ACCESS_DELAY = Duration.ZERO;

    /**
     * At most {@code requests} SIP requests per source address in each {@code window} (0: no limit);
     * an address over it is dropped unanswered until {@code block} has passed since its last request
     * over it. See {@code RequestRateGuard}.
     */
    public record RequestRateLimit(int requests, Duration window, Duration block) {
        /** No limit: the default, as pike is a module an operator loads, and one address may be a whole PBX. */
        public static final RequestRateLimit OFF = new RequestRateLimit(0, Duration.ofSeconds(2), Duration.ofSeconds(60));

        public RequestRateLimit {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(block, "block");
            if (requests < 0) {
                throw new IllegalArgumentException("requests per window must not be negative, got " + requests);
            }
            if (window.isNegative() || window.isZero() || block.isNegative() || block.isZero()) {
                throw new IllegalArgumentException("window and block must be positive, got " + window + " and " + block);
            }
        }

        /** pike's sampling unit (2 s) and a minute's block, at {@code requests} a window. */
        public static RequestRateLimit perTwoSeconds(int requests) {
            return new RequestRateLimit(requests, Duration.ofSeconds(2), Duration.ofSeconds(60));
        }
    }

    private final InetSocketAddress sipAddress;
    private final String advertisedHost;
    private final String mediaAddress;
    private final boolean tcp;
    private final int signallingPort;
    private final int mediaPortMin;
    private final int mediaPortMax;
    private final DialPlan dialPlan;
    private final Duration mediaTimeout;
    private final Duration heldMediaTimeout;
    private final Duration setupTimeout;
    private final Duration linger;
    private final Duration mediaDeadline;
    private final int mediaDeadlinePackets;
    private final Duration inviteTimeout;
    private final Duration t1;
    private final Duration t2;
    private final Duration transactionWait;
    private final int minExpires;
    private final int maxExpires;
    private final int maxCalls;
    private final RequestRateLimit requestRateLimit;
    private final Duration retryAfter;
    private final MediaThread mediaThread;
    private final int mediaThreadCalls;
    private final Duration accessDelay;
    private final Path callRecords;

    private RelayConfig(Builder b) {
        this.sipAddress = b.sipAddress;
        this.advertisedHost = b.advertisedHost != null ? b.advertisedHost : b.sipAddress.getHostString();
        this.mediaAddress = b.mediaAddress != null ? b.mediaAddress : this.advertisedHost;
        this.tcp = b.tcp;
        this.signallingPort = b.signallingPort;
        this.mediaPortMin = b.mediaPortMin;
        this.mediaPortMax = b.mediaPortMax;
        this.dialPlan = new DialPlan(b.rules);
        this.mediaTimeout = b.mediaTimeout;
        this.heldMediaTimeout = b.heldMediaTimeout;
        this.setupTimeout = b.setupTimeout;
        this.linger = b.linger;
        this.mediaDeadline = b.mediaDeadline;
        this.mediaDeadlinePackets = b.mediaDeadlinePackets;
        this.inviteTimeout = b.inviteTimeout;
        this.t1 = b.t1;
        this.t2 = b.t2;
        this.transactionWait = b.transactionWait != null ? b.transactionWait
                : b.t1.multipliedBy(DEFAULT_TRANSACTION_WAIT_T1);
        this.minExpires = b.minExpires;
        this.maxExpires = b.maxExpires;
        this.maxCalls = b.maxCalls;
        this.requestRateLimit = b.requestRateLimit;
        this.retryAfter = b.retryAfter;
        this.mediaThread = b.mediaThread;
        this.mediaThreadCalls = b.mediaThreadCalls;
        this.accessDelay = b.accessDelay;
        this.callRecords = b.callRecords;
    }

    public static Builder builder() {
        return new Builder();
    }

    public InetSocketAddress sipAddress() {
        return sipAddress;
    }

    /** The host phones reach the relay at, written in its Via and Record-Route. */
    public String advertisedHost() {
        return advertisedHost;
    }

    /** The IP literal written in SDP for the phones, where the media sockets are bound. */
    public String mediaAddress() {
        return mediaAddress;
    }

    public boolean tcp() {
        return tcp;
    }

    public int signallingPort() {
        return signallingPort;
    }

    public int mediaPortMin() {
        return mediaPortMin;
    }

    public int mediaPortMax() {
        return mediaPortMax;
    }

    public DialPlan dialPlan() {
        return dialPlan;
    }

    public Duration mediaTimeout() {
        return mediaTimeout;
    }

    public Duration heldMediaTimeout() {
        return heldMediaTimeout;
    }

    public Duration setupTimeout() {
        return setupTimeout;
    }

    public Duration linger() {
        return linger;
    }

    /** The deadline of a stream whose packet time is not known, or of every stream with {@code mediaDeadlinePackets} 0. */
    public Duration mediaDeadline() {
        return mediaDeadline;
    }

    /** Packets of its a=ptime a stream's deadline spans; 0: every stream takes {@link #mediaDeadline()}. */
    public int mediaDeadlinePackets() {
        return mediaDeadlinePackets;
    }

    /**
     * The deadline of a stream whose phones asked for packets of {@code ptime} (null: not known):
     * {@code mediaDeadlinePackets} of them, else {@link #mediaDeadline()}.
     */
    public Duration mediaDeadline(Duration ptime) {
        return ptime == null || mediaDeadlinePackets == 0 ? mediaDeadline : ptime.multipliedBy(mediaDeadlinePackets);
    }

    public Duration inviteTimeout() {
        return inviteTimeout;
    }

    public Duration t1() {
        return t1;
    }

    public Duration t2() {
        return t2;
    }

    /** How long a transaction is remembered after its final response (or its timeout). */
    public Duration transactionWait() {
        return transactionWait;
    }

    public int minExpires() {
        return minExpires;
    }

    public int maxExpires() {
        return maxExpires;
    }

    /** Calls at most (not counting those ending); 0: as many as the media ports allow. */
    public int maxCalls() {
        return maxCalls;
    }

    public RequestRateLimit requestRateLimit() {
        return requestRateLimit;
    }

    /** The Retry-After of the 503 an INVITE gets when the relay is full. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Where the phones' media sockets run ({@link #DEFAULT_MEDIA_THREAD}). */
    public MediaThread mediaThread() {
        return mediaThread;
    }

    /** With {@link MediaThread#AUTO}, the calls on the node's loop before the media loop takes the next. */
    public int mediaThreadCalls() {
        return mediaThreadCalls;
    }

    /** The access networks' one-way delay added to the relay's own in its E-model figures. */
    public Duration accessDelay() {
        return accessDelay;
    }

    /** The JSON Lines file each ended call's record is appended to, or null when calls are not recorded. */
    public Path callRecords() {
        return callRecords;
    }

    public static final class Builder {
        private InetSocketAddress sipAddress = DEFAULT_SIP_ADDRESS;
        private String advertisedHost;
        private String mediaAddress;
        private boolean tcp = true;
        private int signallingPort = DEFAULT_SIGNALLING_PORT;
        private int mediaPortMin = DEFAULT_MEDIA_PORT_MIN;
        private int mediaPortMax = DEFAULT_MEDIA_PORT_MAX;
        private final List<DialPlan.Rule> rules = new ArrayList<>();
        private Duration mediaTimeout = DEFAULT_MEDIA_TIMEOUT;
        private Duration heldMediaTimeout = DEFAULT_HELD_MEDIA_TIMEOUT;
        private Duration setupTimeout = DEFAULT_SETUP_TIMEOUT;
        private Duration linger = DEFAULT_LINGER;
        private Duration mediaDeadline = DEFAULT_MEDIA_DEADLINE;
        private int mediaDeadlinePackets = DEFAULT_MEDIA_DEADLINE_PACKETS;
        private Duration inviteTimeout = DEFAULT_INVITE_TIMEOUT;
        private Duration t1 = DEFAULT_T1;
        private Duration t2 = DEFAULT_T2;
        private Duration transactionWait;
        private int minExpires = DEFAULT_MIN_EXPIRES;
        private int maxExpires = DEFAULT_MAX_EXPIRES;
        private int maxCalls = DEFAULT_MAX_CALLS;
        private RequestRateLimit requestRateLimit = RequestRateLimit.OFF;
        private Duration retryAfter = DEFAULT_RETRY_AFTER;
        private MediaThread mediaThread = DEFAULT_MEDIA_THREAD;
        private int mediaThreadCalls = DEFAULT_MEDIA_THREAD_CALLS;
        private Duration accessDelay = DEFAULT_ACCESS_DELAY;
        private Path callRecords;

        /** Where phones send SIP (UDP, and TCP on the same port unless {@link #tcp(boolean)} is false). */
        public Builder sipAddress(InetSocketAddress address) {
            this.sipAddress = Objects.requireNonNull(address, "sipAddress");
            return this;
        }

        /** The host written in Via and Record-Route; required when the SIP address is a wildcard. */
        public Builder advertisedHost(String host) {
            this.advertisedHost = host;
            return this;
        }

        /** The media IP literal (defaults to the advertised host). */
        public Builder mediaAddress(String address) {
            this.mediaAddress = address;
            return this;
        }

        public Builder tcp(boolean tcp) {
            this.tcp = tcp;
            return this;
        }

        public Builder signallingPort(int port) {
            this.signallingPort = port;
            return this;
        }

        public Builder mediaPorts(int min, int max) {
            this.mediaPortMin = min;
            this.mediaPortMax = max;
            return this;
        }

        /** Adds a dial-plan rule ({@link DialPlan.Rule#parse}). */
        public Builder route(String rule) {
            rules.add(DialPlan.Rule.parse(rule));
            return this;
        }

        public Builder mediaTimeout(Duration d) {
            this.mediaTimeout = positive(d, "mediaTimeout");
            return this;
        }

        public Builder heldMediaTimeout(Duration d) {
            this.heldMediaTimeout = positive(d, "heldMediaTimeout");
            return this;
        }

        public Builder setupTimeout(Duration d) {
            this.setupTimeout = positive(d, "setupTimeout");
            return this;
        }

        /** How long an ended call stays; zero frees it at once. */
        public Builder linger(Duration d) {
            Objects.requireNonNull(d, "linger");
            if (d.isNegative()) {
                throw new IllegalArgumentException("linger must not be negative");
            }
            this.linger = d;
            return this;
        }

        public Builder mediaDeadline(Duration d) {
            this.mediaDeadline = positive(d, "mediaDeadline");
            return this;
        }

        /** Packets of its a=ptime in a stream's deadline, 0 to {@value #MAX_MEDIA_DEADLINE_PACKETS}; 0 keeps one deadline for all. */
        public Builder mediaDeadlinePackets(int packets) {
            if (packets < 0 || packets > MAX_MEDIA_DEADLINE_PACKETS) {
                throw new IllegalArgumentException("mediaDeadlinePackets must be 0 to " + MAX_MEDIA_DEADLINE_PACKETS
                        + ", got " + packets);
            }
            this.mediaDeadlinePackets = packets;
            return this;
        }

        public Builder inviteTimeout(Duration d) {
            this.inviteTimeout = positive(d, "inviteTimeout");
            return this;
        }

        public Builder timers(Duration t1, Duration t2) {
            this.t1 = positive(t1, "t1");
            this.t2 = positive(t2, "t2");
            return this;
        }

        /**
         * How long a transaction is remembered after its final response, to answer a retransmitted
         * request again and to absorb retransmitted responses (64 T1 unless set). Kamailio's
         * {@code wt_timer} is the same choice, at 5 s; a shorter wait forgets sooner and holds less.
         */
        public Builder transactionWait(Duration d) {
            this.transactionWait = positive(d, "transactionWait");
            return this;
        }

        public Builder expires(int min, int max) {
            this.minExpires = min;
            this.maxExpires = max;
            return this;
        }

        /** At most {@code n} calls at once (0: no limit but the media ports); more are answered 503. */
        public Builder maxCalls(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("maxCalls must not be negative, got " + n);
            }
            this.maxCalls = n;
            return this;
        }

        /** The per-address request cap; {@link RequestRateLimit#OFF} (the default) for none. */
        public Builder requestRateLimit(RequestRateLimit limit) {
            this.requestRateLimit = Objects.requireNonNull(limit, "requestRateLimit");
            return this;
        }

        /** The Retry-After of an overload 503, in whole seconds (at least one). */
        public Builder retryAfter(Duration d) {
            positive(d, "retryAfter");
            if (d.toSeconds() < 1) {
                throw new IllegalArgumentException("retryAfter is whole seconds, at least 1, got " + d);
            }
            this.retryAfter = d;
            return this;
        }

        /** The phones' media sockets on the node's loop, on a thread of their own, or by the calls carried. */
        public Builder mediaThread(MediaThread mode) {
            this.mediaThread = Objects.requireNonNull(mode, "mediaThread");
            return this;
        }

        /** With {@link MediaThread#AUTO}, calls on the node's loop before the media loop takes the next (0: none). */
        public Builder mediaThreadCalls(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("mediaThreadCalls must not be negative, got " + n);
            }
            this.mediaThreadCalls = n;
            return this;
        }

        /** The access networks' one-way delay the E-model figures add to the relay's own (0 or more). */
        public Builder accessDelay(Duration d) {
            Objects.requireNonNull(d, "accessDelay");
            if (d.isNegative()) {
                throw new IllegalArgumentException("accessDelay must not be negative, got " + d);
            }
            this.accessDelay = d;
            return this;
        }

        /**
         * Appends one JSON object per ended call to {@code file} (JSON Lines; its directories are made
         * when missing), or records nothing with null, the default: a relay embedded in a program or a
         * test writes no file it was not asked for, and where the records go is the operator's choice.
         */
        public Builder callRecords(Path file) {
            this.callRecords = file;
            return this;
        }

        public RelayConfig build() {
            if (sipAddress.getAddress() != null && sipAddress.getAddress().isAnyLocalAddress() && advertisedHost == null) {
                throw new IllegalArgumentException("the SIP address " + sipAddress
                        + " is a wildcard: set advertisedHost to the address phones reach the relay at");
            }
            if (signallingPort < 1 || signallingPort > 65535) {
                throw new IllegalArgumentException("signallingPort must be 1-65535, got " + signallingPort);
            }
            if (minExpires < 1 || maxExpires < minExpires) {
                throw new IllegalArgumentException("expires range " + minExpires + "-" + maxExpires);
            }
            String media = mediaAddress != null ? mediaAddress
                    : advertisedHost != null ? advertisedHost : sipAddress.getHostString();
            if (Calls.literal(media) == null) {
                throw new IllegalArgumentException("the media address must be an IP literal, got " + media);
            }
            new PortPool(mediaPortMin, mediaPortMax);
            return new RelayConfig(this);
        }

        private static Duration positive(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + d);
            }
            return d;
        }
    }
}
