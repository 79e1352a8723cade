package net.hopwise.multicast;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.SessionAdmission;

/**
 * Cost-Benefit flow control for the node's unicast reliable sessions (Danilov 2004, section 4.2: the
 * rules hold for "a unicast path" as for a multicast tree): each session end is a client with its own
 * budget, and each new packet of it costs the fee plus the advertised costs of the links of its unicast
 * route (Eq 4.8 with MT(p) the path), bought from the salary token bucket under the same rules and
 * parameters as a multicast sender's ({@link ClientBudget}, the 1/C_p draw, the adaptive period). A
 * session that cannot afford its next packet sends nothing new until its next salary, the end of the
 * draw's hold, or a cost update; its application meets the session's own back-pressure once the
 * send buffer is full. The costs are those {@link FlowControl} hears and advertises. Only on the node's
 * thread, except the statistics.
 */
final class UnicastCostBenefit implements SessionAdmission {
    private final ModuleContext context;
    private final FlowControl flow;
    private final CostBenefitConfig config;
    private final NodeId self;
    private final SplittableRandom random;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private Map<NodeId, Map<NodeId, Double>> costs = Map.of();
    private boolean costsStale = true;
    private long nextFastNanos;
    private boolean closed;

    UnicastCostBenefit(ModuleContext context, FlowControl flow) {
        this.context = context;
        this.flow = flow;
        this.config = flow.config();
        this.self = context.self();
        // Seeded by the node (apart from its multicast clients' draws), so a simulated run repeats.
        this.random = new SplittableRandom(self.value() ^ 0x556e69636173744cL);
        this.nextFastNanos = context.nowNanos() + config.fastUpdateNanos();
    }

    @Override
    public Meter open(NodeId remote, RoutingMetric metric, Runnable wake) {
        if (closed) {
            return null; // the node stops: nothing is left to price its sessions
        }
        Client c = new Client(remote, metric, wake, new ClientBudget(config, context.nowNanos(),
                new SplittableRandom(random.nextLong())::nextDouble));
        clients.add(c);
        return c;
    }

    /**
     * New costs were heard (or advertised): held packets go if still affordable and blocked clients
     * look again, as a multicast client's do on a cost update.
     */
    void costsChanged() {
        costsStale = true;
        for (Client c : clients) {
            c.holdUntilNanos = 0;
            if (c.waiting) {
                c.waiting = false;
                c.wake.run();
            }
        }
    }

    long nextDeadlineNanos() {
        return clients.isEmpty() ? Long.MAX_VALUE : nextFastNanos;
    }

    /** On FlowControl's period: its own links' costs were advertised, which ends holds as an update does. */
    void onTimer(long nowNanos) {
        if (nowNanos < nextFastNanos) {
            return;
        }
        while (nextFastNanos <= nowNanos) {
            nextFastNanos += config.fastUpdateNanos();
        }
        costsChanged();
    }

    /** C_p without the fee: the sum of the advertised costs of the links from here to {@code remote}. */
    double pathCost(NodeId remote, RoutingMetric metric) {
        if (costsStale) {
            costs = flow.costs();
            costsStale = false;
        }
        if (costs.isEmpty()) {
            return 0;
        }
        List<NodeId> path = context.routes().path(remote, metric);
        double sum = 0;
        for (int i = 1; i < path.size(); i++) {
            Map<NodeId, Double> from = costs.get(path.get(i - 1));
            Double c = from == null ? null : from.get(path.get(i));
            if (c != null) {
                sum += c;
            }
        }
        return sum;
    }

    List<UnicastClientStatistics> statistics() {
        return clients.stream().map(Client::statistics).toList();
    }

    void close() {
        closed = true;
        clients.clear();
    }

    /** One session end's purse and how long its head packet is held. */
    private final class Client implements Meter {
        final NodeId remote;
        final RoutingMetric metric;
        final Runnable wake;
        final ClientBudget budget;
        long holdUntilNanos;
        /** Refused and waiting to be woken by a cost update. */
        boolean waiting;
        volatile long packets;
        volatile long refusals;
        volatile double lastCost;
        volatile double tokens;
        volatile long periodNanos;

        Client(NodeId remote, RoutingMetric metric, Runnable wake, ClientBudget budget) {
            this.remote = remote;
            this.metric = metric;
            this.wake = wake;
            this.budget = budget;
            publish();
        }

        @Override
        public long admit(long nowNanos) {
            budget.paySalaries(nowNanos);
            try {
                if (nowNanos < holdUntilNanos) {
                    waiting = true;
                    return holdUntilNanos;
                }
                double cost = config.fee() + (remote.equals(self) ? 0 : pathCost(remote, metric));
                ClientBudget.Decision d = budget.offer(cost, random.nextDouble());
                if (d == ClientBudget.Decision.SEND) {
                    holdUntilNanos = 0;
                    packets++;
                    lastCost = cost;
                    return ADMITTED;
                }
                refusals++;
                waiting = true;
                if (d == ClientBudget.Decision.HOLD) {
                    holdUntilNanos = nowNanos + config.holdTimeoutNanos();
                    return holdUntilNanos;
                }
                return budget.nextSalaryNanos();
            } finally {
                publish();
            }
        }

        @Override
        public void close() {
            clients.remove(this);
        }

        private void publish() {
            tokens = budget.tokens();
            periodNanos = budget.periodNanos();
        }

        UnicastClientStatistics statistics() {
            return new UnicastClientStatistics(remote, metric, packets, refusals, tokens, periodNanos, lastCost);
        }
    }
}
