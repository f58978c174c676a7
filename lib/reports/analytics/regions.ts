/**
 * Region of a caller from the number's country code and, in the North American Numbering Plan, its
 * area code: the four US census regions, Canada, toll-free, other NANP countries, International.
 */
const US_AREA_CODES: Record<"Northeast" | "Midwest" | "South" | "West", string> = {
  // CT ME MA NH RI VT NJ NY PA
  Northeast:
    "203 475 860 959 207 339 351 413 508 617 774 781 857 978 603 401 802 201 551 609 640 732 848 856 862 908 973 212 315 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934 215 223 267 272 412 445 484 570 582 610 717 724 814 835 878",
  // IL IN IA KS MI MN MO NE ND OH SD WI
  Midwest:
    "217 224 309 312 331 447 464 618 630 708 773 779 815 847 872 219 260 317 463 574 765 812 930 319 515 563 641 712 316 620 785 913 231 248 269 313 517 586 616 679 734 810 906 947 989 218 320 507 612 651 763 952 314 417 557 573 636 660 816 975 308 402 531 701 216 220 234 283 326 330 380 419 436 440 513 567 614 740 937 605 262 274 353 414 534 608 715 920",
  // DE DC FL GA MD NC SC VA WV AL KY MS TN AR LA OK TX
  South:
    "302 202 771 239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954 229 404 470 478 678 706 762 770 912 943 227 240 301 410 443 667 252 336 472 704 743 828 910 919 980 984 803 821 839 843 854 864 276 434 540 571 686 703 757 804 826 948 304 681 205 251 256 334 483 659 938 270 364 502 606 859 228 601 662 769 423 615 629 731 865 901 931 479 501 870 225 318 337 504 985 405 539 572 580 918 210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 915 936 940 945 956 972 979",
  // AZ CO ID MT NV NM UT WY AK CA HI OR WA
  West:
    "480 520 602 623 928 303 719 720 970 983 208 986 406 702 725 775 505 575 385 435 801 307 907 209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 747 760 805 818 820 831 840 858 909 916 925 949 951 808 458 503 541 971 206 253 360 425 509 564",
};
const CANADA_AREA_CODES =
  "204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450 468 474 506 514 519 548 579 581 584 587 600 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905";
const TOLL_FREE = "800 833 844 855 866 877 888";

const regionByAreaCode = new Map<string, string>();
for (const [region, codes] of Object.entries(US_AREA_CODES)) for (const code of codes.split(" ")) regionByAreaCode.set(code, region);
for (const code of CANADA_AREA_CODES.split(" ")) regionByAreaCode.set(code, "Canada");
for (const code of TOLL_FREE.split(" ")) regionByAreaCode.set(code, "Toll-free");

export const regionNames = ["Northeast", "Midwest", "South", "West", "Canada", "Toll-free", "Other North America", "International", "Unknown"] as const;
export type RegionName = (typeof regionNames)[number];

/** The region of a number in E.164 form ("+1415…" → West); an agent name or a malformed number → Unknown. */
export function regionOf(number: string): RegionName {
  if (!/^\+\d{7,15}$/.test(number)) return "Unknown";
  if (!number.startsWith("+1")) return "International";
  return (regionByAreaCode.get(number.slice(2, 5)) as RegionName | undefined) ?? "Other North America";
}

/** The key the database groups on: the NANP area code, or a marker for everything else. */
export function regionOfKey(key: string): RegionName {
  if (key === "intl") return "International";
  if (key === "unknown") return "Unknown";
  return (regionByAreaCode.get(key) as RegionName | undefined) ?? "Other North America";
}
