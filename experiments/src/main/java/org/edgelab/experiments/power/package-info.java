/** Power model plugins: modelled ({@code linear}) or measured ({@code rapl}) power of each measured window. */
package org.edgelab.experiments.power;
