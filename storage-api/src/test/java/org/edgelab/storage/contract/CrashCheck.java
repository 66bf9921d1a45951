package org.edgelab.storage.contract;

import java.util.List;

/**
 * The outcome of {@link CrashHarness#verify}: of the keys checked, how many were present (and
 * byte-exact: anything else fails the check), absent, or dropped by the engine as corrupt, and
 * which committed keys are missing. Immutable.
 *
 * @param checked                 keys looked up ({@code crash-0 .. crash-(highest+1)})
 * @param present                 keys found complete and byte-exact with the right length
 * @param absent                  keys not found (including those reported corrupt)
 * @param corruptDetected         keys whose lookup or read failed with CorruptObjectException
 * @param committedButAbsent      committed keys (per the run) that are absent
 * @param committedButAbsentKeys  those keys, in commit order
 */
public record CrashCheck(int checked, int present, int absent, int corruptDetected, int committedButAbsent,
                         List<String> committedButAbsentKeys) {

    public CrashCheck {
        committedButAbsentKeys = List.copyOf(committedButAbsentKeys);
    }
}
