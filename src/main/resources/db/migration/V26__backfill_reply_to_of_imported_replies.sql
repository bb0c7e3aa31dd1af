-- Every reply names the user turn it answers. Replies Memoir made have named it since V19; an imported reply
-- answers the user turn right before it in its session (the rule feedback on a reply used to apply when it was
-- asked), so imported replies stored before this version are given it here, and later imports set it on arrival.
-- An assistant turn that follows another assistant turn, or opens its session, answers nothing and stays null.
update turns as reply
set reply_to = question.id
from turns as question
where reply.role = 'ASSISTANT'
  and reply.reply_to is null
  and question.session_id = reply.session_id
  and question.role = 'USER'
  and question.seq = (select max(earlier.seq) from turns as earlier
                      where earlier.session_id = reply.session_id and earlier.seq < reply.seq);
