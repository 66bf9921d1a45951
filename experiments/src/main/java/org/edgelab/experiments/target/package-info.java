/**
 * Targets: where the systems under test run ({@code embedded}, {@code process}, {@code container},
 * {@code external} and peers), behind one {@link org.edgelab.experiments.target.Target} plugin
 * interface found through {@link org.edgelab.experiments.target.Targets}. The runner only talks to
 * {@link org.edgelab.experiments.target.RunningTarget}.
 */
package org.edgelab.experiments.target;
