import { understand } from "@/lib/conversation/understanding";
const [now, tz, ...utts] = process.argv.slice(2);
(async () => {
  for (const t of utts) {
    const u = await understand(t, { now: new Date(now), timeZone: tz, services: ["Teeth Cleaning","Filling","Initial Consultation","Lease Review","Drain Cleaning","Service Call","Water Heater Inspection","Dinner Reservation","Women's Haircut","Men's Haircut","Color","Blowout","Balayage"], people: ["Dr. Chen","Sarah Morales","David Finch","Jess","Marco"] });
    console.log(JSON.stringify(t), "=>", JSON.stringify({ ...u, intents: u.intents.slice(0,4).map(i=>`${i.intent}:${i.score.toFixed(2)}`) }));
  }
})();
