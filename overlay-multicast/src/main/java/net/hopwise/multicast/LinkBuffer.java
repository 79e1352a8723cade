package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/**
 * One outgoing link's flow-controlled channel as the last cost update saw it.
 *
 * @param neighbour the node at the other end
 * @param average the average number of packets the node held for the link unsent over the last update
 *     period, in the flow-control buffer and the node's reliable link queue: the n of the link cost
 * @param peak the most it held over that period
 * @param cost the cost advertised for it
 * @param inFlight packets sent and not yet acknowledged
 * @param window the congestion window, in packets, within {@link CostBenefitConfig#linkWindowPackets()}
 * @param dropped packets dropped at the hard buffer limit or given up after repeated losses, since start
 * @param resent packets sent again, since start
 * @param updateBytes bytes of cost updates that rode on the link's packets, since start
 * @param updatesAlone cost updates that crossed the link as datagrams of their own, since start
 */
public record LinkBuffer(NodeId neighbour, double average, int peak, double cost, int inFlight, double window,
        long dropped, long resent, long updateBytes, long updatesAlone) {}
