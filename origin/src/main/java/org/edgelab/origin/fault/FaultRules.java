package org.edgelab.origin.fault;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The faults a server applies to all requests by configuration, as an ordered list of
 * {@link FaultRule}s; when several fire for one request, later rules override earlier ones field by
 * field, and a URL's own fault query overrides them all. Immutable and thread-safe.
 *
 * <p>Text form ({@link #parse}): rules separated by {@code ;}, each written like a URL query with
 * an optional {@code every=N}, e.g. {@code every=10&status=503;first-byte-delay=20ms}.
 */
public final class FaultRules {

    private static final FaultRules NONE = new FaultRules(List.of());

    private final List<FaultRule> rules;

    private FaultRules(List<FaultRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** No faults. */
    public static FaultRules none() {
        return NONE;
    }

    /** The given rules, applied in order. */
    public static FaultRules of(FaultRule... rules) {
        return rules.length == 0 ? NONE : new FaultRules(List.of(rules));
    }

    /** Parses the text form; throws IllegalArgumentException naming the bad rule. */
    public static FaultRules parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<FaultRule> rules = new ArrayList<>();
        for (String ruleText : text.split(";")) {
            if (ruleText.isBlank()) {
                continue;
            }
            Map<String, List<String>> params = new LinkedHashMap<>(new QueryStringDecoder(ruleText.trim(), false).parameters());
            long every = 1;
            List<String> everyValues = params.remove("every");
            try {
                if (everyValues != null && !everyValues.isEmpty()) {
                    every = Long.parseLong(everyValues.get(everyValues.size() - 1).trim());
                }
                for (String name : params.keySet()) {
                    if (!FaultPlan.PARAMETERS.contains(name)) {
                        throw new IllegalArgumentException("unknown parameter '" + name + "'; known: every, "
                                + String.join(", ", FaultPlan.PARAMETERS));
                    }
                }
                FaultPlan plan = FaultPlan.fromParameters(params);
                if (plan.isNone()) {
                    throw new IllegalArgumentException("the rule sets no fault");
                }
                rules.add(new FaultRule(every, plan));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad fault rule '" + ruleText.trim() + "': " + e.getMessage(), e);
            }
        }
        return rules.isEmpty() ? NONE : new FaultRules(rules);
    }

    /** The rules, in order. */
    public List<FaultRule> rules() {
        return rules;
    }

    /** The combined plan for the request numbered {@code requestNumber} (from 1); {@link FaultPlan#NONE} if no rule fires. */
    public FaultPlan planFor(long requestNumber) {
        FaultPlan plan = FaultPlan.NONE;
        for (FaultRule rule : rules) {
            if (rule.appliesTo(requestNumber)) {
                plan = plan.overriddenBy(rule.plan());
            }
        }
        return plan;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FaultRules other && rules.equals(other.rules);
    }

    @Override
    public int hashCode() {
        return rules.hashCode();
    }

    @Override
    public String toString() {
        return "FaultRules" + rules;
    }
}
