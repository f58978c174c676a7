"use client";

import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { chartColors } from "@/components/reports/analytics/stat-card";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { actionLabel } from "@/lib/reports/analytics/text";

function EmptyChart({ text }: { text: string }) {
  return <p className="py-12 text-center text-sm text-muted-foreground">{text}</p>;
}

/**
 * The Analytics Engine tab's charts. Loaded on its own (next/dynamic in master-admin-screen.tsx) when
 * that tab opens, so the chart library is not part of the page's first script (issue 30 point 5).
 */
export function MasterAdminCharts({
  creditData,
  planData,
  creditUsage,
}: {
  creditData: { name: string; credits: number; percent: number }[];
  planData: { name: string; value: number; percent: number }[];
  creditUsage: { category: string; percent: number }[];
}) {
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Credit usage by what spent it</CardTitle>
        </CardHeader>
        <CardContent data-testid="master-credit-chart">
          {creditData.length ? (
            <ResponsiveContainer width="100%" height={260}>
              <BarChart data={creditData}>
                <CartesianGrid strokeDasharray="3 3" opacity={0.2} />
                <XAxis dataKey="name" fontSize={12} />
                <YAxis fontSize={12} allowDecimals={false} />
                <Tooltip formatter={(v, _n, item) => [`${v} credits (${(item.payload as { percent: number }).percent}%)`, "Used"]} />
                <Bar dataKey="credits" fill={chartColors[0]} />
              </BarChart>
            </ResponsiveContainer>
          ) : (
            <EmptyChart text="No credits used yet" />
          )}
          <ul className="mt-3 grid gap-1 text-sm" data-testid="master-credit-list">
            {creditUsage.map((c) => (
              <li key={c.category} className="flex justify-between">
                <span>{actionLabel(c.category)}</span>
                <span className="tabular-nums">{c.percent}%</span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Subscriptions by plan</CardTitle>
        </CardHeader>
        <CardContent data-testid="master-plan-chart">
          {planData.length ? (
            <ResponsiveContainer width="100%" height={260}>
              <PieChart>
                <Pie data={planData} dataKey="value" nameKey="name" outerRadius={100} label={(p) => `${p.name} ${(p.payload as { percent: number }).percent}%`}>
                  {planData.map((_, i) => (
                    <Cell key={i} fill={chartColors[i % chartColors.length]} />
                  ))}
                </Pie>
                <Tooltip />
              </PieChart>
            </ResponsiveContainer>
          ) : (
            <EmptyChart text="No organizations yet" />
          )}
        </CardContent>
      </Card>
    </>
  );
}
